// A hand of cards in overlapping rows: one row while every card keeps a strip a thumb can tap, otherwise two rows
// or three, each laid over the bottom of the one above. The left edge and the top of every card, where its rank and suit
// are printed, stay in view, and every card keeps at least STRIP px of width to tap. A hand too big even for that
// scrolls sideways inside itself rather than narrowing the strips.

import { h } from "./dom.js";

export const STRIP = 46; // a 44 px tap target and a little to spare
export const SHOWN = 50; // px of an upper row's cards left in view: the rank, the suit and a tap's height
const GAP = 3;
const RATIO = 1.44; // a card's height over its width

// Row sizes, the step between cards in a row and whether the rows are wider than ``width``, for ``n`` cards
// ``cardW`` wide in at most ``maxRows`` rows.
export function fanLayout(n, width, cardW, maxRows = 2) {
  if (n <= 1 || n * (cardW + GAP) - GAP <= width) return { rows: n ? [n] : [], step: cardW + GAP, scrolls: false };
  const perRow = Math.max(1, 1 + Math.floor((width - cardW) / STRIP));
  const count = Math.min(maxRows, Math.ceil(n / perRow));
  const base = Math.floor(n / count);
  const rows = Array.from({ length: count }, (_, i) => base + (i < n % count ? 1 : 0));
  const step = Math.max(STRIP, Math.min(cardW + GAP, (width - cardW) / Math.max(1, rows[0] - 1)));
  return { rows, step, scrolls: cardW + (rows[0] - 1) * step > width + 0.5 };
}

// px of an upper row's card left in view: SHOWN, and always a little past the card's middle, where a tap lands
// when nothing says where.
function shownOf(cardW) {
  return Math.max(SHOWN, (cardW * RATIO) / 2 + 8);
}

// The widest card, from ``min`` to ``max`` px, whose fan of ``n`` cards fits ``width`` without scrolling and
// ``height`` from its top row's top to its bottom row's bottom, in at most ``maxRows`` rows, each card's middle in
// view.
export function fitCard(n, width, height, { min = 44, max = 100, maxRows = 3 } = {}) {
  for (let w = Math.floor(max); w > min; w -= 1) {
    const { rows, step, scrolls } = fanLayout(n, width, w, maxRows);
    const middleShows = step >= w / 2 + 4; // the next card leaves this one's middle in view
    if (!scrolls && middleShows && w * RATIO + Math.max(0, rows.length - 1) * shownOf(w) <= height) return w;
  }
  return min;
}

// Lay ``cards`` (elements, in reading order) into ``hand`` as the rows of a fan ``width`` px wide; the number of rows.
export function fanOut(hand, cards, width, cardW, maxRows = 2) {
  const { rows, step, scrolls } = fanLayout(cards.length, width, cardW, maxRows);
  const cardH = cardW * RATIO;
  hand.style.setProperty("--card-w", `${cardW.toFixed(1)}px`);
  hand.style.setProperty("--fan-overlap", `${(step - cardW).toFixed(1)}px`);
  hand.style.setProperty("--fan-row-overlap", `${Math.max(0, cardH - shownOf(cardW)).toFixed(1)}px`);
  hand.dataset.rows = String(rows.length);
  hand.classList.toggle("fan-scrolls", scrolls);
  let next = 0;
  for (const size of rows) {
    hand.append(h("div", { class: "fan-row" }, cards.slice(next, next + size)));
    next += size;
  }
  return rows.length;
}

// Lay ``cards`` into ``hand`` (emptied, class "fan") as large as the room it is given: the hand's own box, which
// the table's layout stretches over the height the rest leaves. Up to ``max`` px a card; the number of rows.
export function fanToFit(hand, cards, { max = 100, maxRows = 3 } = {}) {
  hand.style.minHeight = "";
  hand.classList.remove("fan-empty");
  const box = hand.getBoundingClientRect();
  const style = getComputedStyle(hand);
  const width = (box.width || window.innerWidth - 12) - 4;
  // never past the window's foot, whatever height the page was told it has: what follows the hand stays in view
  const screen = hand.closest(".table-screen");
  const below = screen ? Math.max(0, screen.getBoundingClientRect().bottom - box.bottom) : 0;
  const room = Math.min(box.height, window.innerHeight - box.top - below);
  const height = room - parseFloat(style.paddingTop || "0") - parseFloat(style.paddingBottom || "0");
  const cardW = fitCard(cards.length, width, height, { max, maxRows });
  const rows = fanOut(hand, cards, width, cardW, maxRows);
  hand.classList.toggle("fan-empty", !cards.length); // no cards left: what follows the hand comes up under the table
  // not even the smallest cards fit: the hand takes the room it needs and the page scrolls
  const needed = cardW * RATIO + (rows - 1) * shownOf(cardW);
  if (needed > box.height - (room - height)) hand.style.minHeight = `${Math.ceil(needed + room - height)}px`;
  return rows;
}
