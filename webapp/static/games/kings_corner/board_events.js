// Kings in the Corner, replaying other players' moves: the board as it stood before each event, the event applied
// to it, and a card (or a whole pile) flying from where it came from to where it lands.

import { cardEl } from "../../shell/cards.js";
import { DECK } from "./parts.js";
import { fly as flyNode, reducedMotion, sleep } from "../../shell/motion.js";

export { reducedMotion, sleep };

export const BOARD_EVENTS = new Set(["built", "king_placed", "side_filled", "pile_moved", "corner_collected"]);
const FLY_MS = 300;
const DRAW_MS = 240;

// What the board shows: the piles, the stock and the hand sizes, stepped through the events being replayed.
export function snapshot(s) {
  return { piles: JSON.parse(JSON.stringify(s.piles)), stock: s.stock, counts: [...s.hand_counts], turn: s.turn };
}

export function applyEvent(shown, e) {
  const p = shown.piles;
  switch (e.type) {
    case "built": p[e.space].push(e.card); shown.counts[e.seat] -= 1; break;
    case "king_placed": p[e.corner] = [e.card]; shown.counts[e.seat] -= 1; break;
    case "side_filled": p[e.side] = [e.card]; shown.counts[e.seat] -= 1; break;
    case "pile_moved": p[e.dst] = [...p[e.dst], ...p[e.src]]; p[e.src] = []; break;
    case "corner_collected": p[e.corner] = []; break;
    case "drew": shown.counts[e.seat] += e.count; shown.stock = e.stock; break;
    case "dealt": shown.counts[e.seat] = e.cards ? e.cards.length : e.count; break;
    case "laid_out": shown.piles = JSON.parse(JSON.stringify(e.piles)); shown.stock = e.stock; shown.turn = e.turn; break;
    case "turn_ended": if (e.next !== null) shown.turn = e.next; break;
    default: break;
  }
}

// The space an event puts something on.
export function spaceOf(e) {
  return e.space || e.corner || e.side || e.dst || null;
}

const fly = (node, from, to, ms) => flyNode(node, from, to, ms, "kc-fly");

function pileNode(felt, space) {
  return felt.querySelector(`.kc-pile[data-space="${space}"]`);
}

// Where a card put on ``space`` comes to rest: over the top card, or in the empty slot.
function landing(felt, space, whole) {
  const pile = pileNode(felt, space);
  if (!pile) return null;
  const top = pile.querySelector(".kc-top") || pile.querySelector(".kc-bottom");
  const slot = pile.querySelector(".kc-stack").getBoundingClientRect();
  if (!top) return slot;
  const r = top.getBoundingClientRect();
  const width = whole ? slot.width : r.width;
  if (pile.querySelector(".kc-top")) return { left: r.left, top: r.top, width };
  return { left: r.left + r.width * 0.36, top: r.top + r.height * 0.26, width }; // the fan of kings_corner.css
}

// A card from the player's seat to its pile, or a whole pile from its space to the pile it joins.
export async function flyMove(e, felt, seats) {
  let node;
  let from;
  if (e.type === "corner_collected") return;
  if (e.type === "pile_moved") {
    const src = pileNode(felt, e.src);
    const stack = src && src.querySelector(".kc-stack");
    if (!stack) return;
    from = stack.getBoundingClientRect();
    node = stack.cloneNode(true);
    stack.style.visibility = "hidden";
  } else {
    const seat = seats.querySelector(`.kc-seat[data-seat="${e.seat}"] .count`) || seats;
    from = seat.getBoundingClientRect();
    node = cardEl(e.card, DECK);
  }
  const to = landing(felt, spaceOf(e), e.type === "pile_moved");
  if (to) await fly(node, from, to, FLY_MS);
}

// A card back from the stock to the seat that drew it.
export async function flyDraw(e, felt, seats) {
  const stock = felt.querySelector(".kc-stock .card");
  const seat = seats.querySelector(`.kc-seat[data-seat="${e.seat}"] .count`);
  if (!stock || !seat) return;
  const from = stock.getBoundingClientRect();
  const to = seat.getBoundingClientRect();
  await fly(stock.cloneNode(true), from, { left: to.left, top: to.top - from.height / 3, width: from.width }, DRAW_MS);
}
