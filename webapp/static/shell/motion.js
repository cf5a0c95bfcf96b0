// Moving cards on the table: a card flies from where it came from to where it lands, unless the player has asked
// their system for reduced motion. Shared by every table.

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
