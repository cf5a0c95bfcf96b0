// Moving cards on the table, unless the player has asked their system for reduced motion: a card flies from where
// it came from to where it lands, a new hand is dealt from the deck, a finished trick sweeps to its winner, points
// rise to the score. Only transforms and opacity move, so nothing waits for them. Shared by every table.
// Nothing moves over words the player reads (the status line, the coach, anything a table marks data-keep-clear):
// a path that would cross them starts (or ends) at their edge instead, and a card whose own place is under them
// does not move at all.

export const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });
export const reducedMotion = () => Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

const KEEP_CLEAR = ".status, .coach:not([hidden]), [data-keep-clear]";
const MARGIN = 4; // px kept between a moving card (rotated or scaled a little) and the words it passes

function zones() {
  return [...document.querySelectorAll(KEEP_CLEAR)].map((el) => el.getBoundingClientRect()).filter((r) => r.width && r.height);
}

// Where the box (``w`` by ``h``) around the point ``fixed`` may move to or from, going toward ``free``: ``free``
// itself, or the last point before the path meets a zone of words (grown by half the box, so the box never
// touches them); null when the box at ``fixed`` already lies on words (then nothing should move).
export function clearPath(fixed, free, w, h) {
  let t = 1;
  for (const z of zones()) {
    const left = z.left - w / 2 - MARGIN;
    const right = z.right + w / 2 + MARGIN;
    const top = z.top - h / 2 - MARGIN;
    const bottom = z.bottom + h / 2 + MARGIN;
    if (fixed.x > left && fixed.x < right && fixed.y > top && fixed.y < bottom) return null;
    // Liang–Barsky: the part of fixed → free inside the zone
    const dx = free.x - fixed.x;
    const dy = free.y - fixed.y;
    let enter = 0;
    let exit = 1;
    for (const [p, q] of [[-dx, fixed.x - left], [dx, right - fixed.x], [-dy, fixed.y - top], [dy, bottom - fixed.y]]) {
      if (p === 0) {
        if (q < 0) { enter = 2; break; }
      } else {
        const r = q / p;
        if (p < 0) enter = Math.max(enter, r);
        else exit = Math.min(exit, r);
      }
    }
    if (enter <= exit && enter <= 1) t = Math.min(t, Math.max(0, enter - 0.001));
  }
  return { x: fixed.x + (free.x - fixed.x) * t, y: fixed.y + (free.y - fixed.y) * t };
}

// Move ``node`` from the rectangle ``from`` to ``to`` in ``ms``, above everything, then drop it. It sets off from
// the edge of any words between the two (clearPath), and stays put when ``to`` lies on words.
export function fly(node, from, to, ms, cls = "fly") {
  const height = to.height || from.height || to.width * 1.4;
  const end = { x: to.left + to.width / 2, y: to.top + height / 2 };
  const start = clearPath(end, { x: from.left + to.width / 2, y: from.top + height / 2 }, to.width, height);
  if (!start) return Promise.resolve();
  from = { left: start.x - to.width / 2, top: start.y - height / 2 };
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
  await fly(copy, start, { left: to.left, top: to.top, width: to.width, height: to.height }, ms);
  target.style.visibility = "";
}

const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

// A new hand: each of ``cards`` (already in its place, tappable at once) flies in from the rectangle ``deck``, one
// after another. Nothing moves when motion is reduced; the cards' places are the same either way.
// Returns a promise of the deal's end.
export function dealIn(cards, deck, { ms = 280, gap = 30 } = {}) {
  if (!deck || reducedMotion()) return Promise.resolve();
  const moves = [];
  cards.forEach((el, i) => {
    const rect = el.getBoundingClientRect();
    const to = centre(rect);
    const from = clearPath(to, centre(deck), rect.width, rect.height);
    if (!from) return;
    moves.push(el.animate([
      { transform: `translate(${from.x - to.x}px, ${from.y - to.y}px) scale(.45) rotate(-12deg)`, opacity: 0.4 },
      { transform: "none", opacity: 1 },
    ], { duration: ms, delay: i * gap, easing: "cubic-bezier(.3,.7,.4,1)", fill: "backwards" }).finished.catch(() => {}));
  });
  return Promise.all(moves);
}

// Copies of ``cards`` where they show now (taken before they leave the page), to sweep away with sweepTo().
export function lift(cards) {
  return cards.map((el) => ({ copy: el.cloneNode(true), rect: el.getBoundingClientRect() })).filter((c) => c.rect.width);
}

// A finished trick (copies from lift()) sweeps to its winner's seat ``target`` and vanishes there.
export function sweepTo(lifted, target, ms = 380) {
  if (!target || !lifted.length || reducedMotion()) return;
  const goal = centre(target.getBoundingClientRect());
  for (const { copy, rect } of lifted) {
    const from = centre(rect);
    const to = clearPath(from, goal, rect.width, rect.height);
    if (!to) continue;
    copy.classList.add("fly");
    Object.assign(copy.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, transform: "none" });
    document.body.append(copy);
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
  const label = document.createElement("div");
  label.className = "fly-points";
  label.textContent = text;
  Object.assign(label.style, { left: `${from.x}px`, top: `${from.y}px` });
  document.body.append(label);
  const size = label.getBoundingClientRect();
  // the label grows to 1.15 on its way: its box, so grown, stays off the words
  const to = clearPath(from, centre(score.getBoundingClientRect()), size.width * 1.15, size.height * 1.15);
  if (!to) {
    label.remove();
    return;
  }
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
// vanish there. Returns a promise of their landing.
export function dealOut(deck, seats, back, { count = 4, ms = 300, gap = 60 } = {}) {
  if (!deck || reducedMotion()) return Promise.resolve();
  const moves = [];
  seats.forEach((seat, s) => {
    const to = centre(seat.getBoundingClientRect());
    const from = clearPath(to, centre(deck), 28, 40);
    if (!from) return;
    for (let i = 0; i < count; i += 1) {
      const card = back();
      card.classList.add("fly");
      Object.assign(card.style, { left: `${from.x - 14}px`, top: `${from.y - 20}px`, width: "28px" });
      document.body.append(card);
      moves.push(card.animate([{ transform: "none", opacity: 1 },
        { transform: `translate(${to.x - from.x}px, ${to.y - from.y}px) rotate(${s ? 20 : -20}deg)`, opacity: 0.2 }],
      { duration: ms, delay: (i * seats.length + s) * gap, easing: "cubic-bezier(.3,.7,.4,1)", fill: "both" })
        .finished.then(() => card.remove(), () => card.remove()));
    }
  });
  return Promise.all(moves);
}
