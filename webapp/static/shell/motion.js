// Moving cards on the table, unless the player has asked their system for reduced motion: a card flies from where
// it came from to where it lands, a new hand is dealt from the deck, a finished trick sweeps to its winner, points
// rise to the score. Only transforms and opacity move, so nothing waits for them. Shared by every table.

export const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });
export const reducedMotion = () => Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

// Move ``node`` from the rectangle ``from`` to ``to`` in ``ms``, above everything, then drop it.
export function fly(node, from, to, ms, cls = "fly") {
  node.classList.add(cls);
  Object.assign(node.style, { left: `${from.left}px`, top: `${from.top}px`, width: `${to.width}px`,
    transition: `transform ${ms}ms cubic-bezier(.3,.7,.4,1)` });
  document.body.append(node);
  node.getBoundingClientRect();
  node.style.transform = `translate(${to.left - from.left}px, ${to.top - from.top}px)`;
  return sleep(ms + 20).then(() => node.remove());
}

// A card ``target`` (already in its place) arrives from the element ``source``: hidden while a copy flies in.
export async function flyIn(target, source, ms) {
  if (!target || !source || reducedMotion()) return;
  const from = source.getBoundingClientRect();
  const to = target.getBoundingClientRect();
  if (!from.width || !to.width) return;
  const copy = target.cloneNode(true);
  copy.style.transform = "none";
  target.style.visibility = "hidden";
  const start = { left: from.left + from.width / 2 - to.width / 2, top: from.top + from.height / 2 - to.height / 2 };
  await fly(copy, start, to, ms);
  target.style.visibility = "";
}

const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

// A new hand: each of ``cards`` (already in its place, tappable at once) flies in from the rectangle ``deck``, one
// after another. Nothing moves when motion is reduced; the cards' places are the same either way.
export function dealIn(cards, deck, { ms = 280, gap = 30 } = {}) {
  if (!deck || reducedMotion()) return;
  const from = centre(deck);
  cards.forEach((el, i) => {
    const to = centre(el.getBoundingClientRect());
    el.animate([
      { transform: `translate(${from.x - to.x}px, ${from.y - to.y}px) scale(.45) rotate(-12deg)`, opacity: 0.4 },
      { transform: "none", opacity: 1 },
    ], { duration: ms, delay: i * gap, easing: "cubic-bezier(.3,.7,.4,1)", fill: "backwards" });
  });
}

// Copies of ``cards`` where they show now (taken before they leave the page), to sweep away with sweepTo().
export function lift(cards) {
  return cards.map((el) => ({ copy: el.cloneNode(true), rect: el.getBoundingClientRect() })).filter((c) => c.rect.width);
}

// A finished trick (copies from lift()) sweeps to its winner's seat ``target`` and vanishes there.
export function sweepTo(lifted, target, ms = 380) {
  if (!target || !lifted.length || reducedMotion()) return;
  const to = centre(target.getBoundingClientRect());
  for (const { copy, rect } of lifted) {
    copy.classList.add("fly");
    Object.assign(copy.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, transform: "none" });
    document.body.append(copy);
    const from = centre(rect);
    copy.animate([{ transform: "none", opacity: 1 },
      { transform: `translate(${to.x - from.x}px, ${to.y - from.y}px) scale(.3)`, opacity: 0 }],
    { duration: ms, easing: "cubic-bezier(.5,0,.7,.4)", fill: "forwards" }).finished.then(() => copy.remove(), () => copy.remove());
  }
}

// Points rise from the element ``source`` to the score ``target`` ("+3" flying), and the score pulses as they land.
// ``target`` is a function finding the score, which may be drawn anew while the points fly.
export function flyPoints(text, source, target, ms = 520) {
  const score = target();
  if (!source || !score || reducedMotion()) return;
  const from = centre(source.getBoundingClientRect());
  const to = centre(score.getBoundingClientRect());
  const label = document.createElement("div");
  label.className = "fly-points";
  label.textContent = text;
  Object.assign(label.style, { left: `${from.x}px`, top: `${from.y}px` });
  document.body.append(label);
  label.animate([
    { transform: "translate(-50%, -50%) scale(.6)", opacity: 0 },
    { transform: "translate(-50%, -50%) scale(1.15)", opacity: 1, offset: 0.25 },
    { transform: `translate(calc(${to.x - from.x}px - 50%), calc(${to.y - from.y}px - 50%)) scale(.8)`, opacity: 0.9 },
  ], { duration: ms, easing: "ease-in-out", fill: "forwards" }).finished.then(() => {
    label.remove();
    const landed = target();
    if (landed) landed.animate([{ transform: "scale(1)" }, { transform: "scale(1.3)" }, { transform: "scale(1)" }], { duration: 260 });
  }, () => label.remove());
}

// A new hand for the others too: a few backs fly from the rectangle ``deck`` to each of the ``seats`` (elements) and
// vanish there.
export function dealOut(deck, seats, back, { count = 4, ms = 300, gap = 60 } = {}) {
  if (!deck || reducedMotion()) return;
  const from = centre(deck);
  seats.forEach((seat, s) => {
    const to = centre(seat.getBoundingClientRect());
    for (let i = 0; i < count; i += 1) {
      const card = back();
      card.classList.add("fly");
      Object.assign(card.style, { left: `${from.x - 14}px`, top: `${from.y - 20}px`, width: "28px" });
      document.body.append(card);
      card.animate([{ transform: "none", opacity: 1 },
        { transform: `translate(${to.x - from.x}px, ${to.y - from.y}px) rotate(${s ? 20 : -20}deg)`, opacity: 0.2 }],
      { duration: ms, delay: (i * seats.length + s) * gap, easing: "cubic-bezier(.3,.7,.4,1)", fill: "both" })
        .finished.then(() => card.remove(), () => card.remove());
    }
  });
}
