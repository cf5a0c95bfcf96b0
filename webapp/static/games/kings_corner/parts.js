// Kings in the Corner, the pieces of the table: card values, piles, the board's plus and corners, seats and
// the one-line story of each turn. Pure DOM builders; the table module decides what is selected or glowing.

import { h } from "../../shell/dom.js";
import { t, tn } from "../../shell/i18n.js";
import { cardEl, backEl, cardName, parseCard, rankLetter, suitIcon } from "../../shell/cards.js";
export { scoreText } from "./sheet.js"; // the score's words live with the score sheet, which History loads too

export const DECK = "french";
export const SIDES = ["N", "E", "S", "W"];
export const CORNERS = ["NE", "SE", "SW", "NW"];
// The board read row by row: corners at the diagonals, the four sides in a plus around the stock.
const GRID = ["NW", "N", "NE", "W", "stock", "E", "SW", "S", "SE"];
const VALUES = { A: 1, J: 11, Q: 12, K: 13 };
const SUIT_ORDER = ["hearts", "clubs", "diamonds", "spades"];
const MAX_LOG_PARTS = 4;

// kings_corner/RULES.md §1.1: Ace low (1) to King (13).
export function value(card) {
  const c = parseCard(card);
  return c ? VALUES[c.rank] || Number(c.rank) : 0;
}

export function isKing(card) {
  return value(card) === 13;
}

// Kings first down to Aces, colours alternating within a rank, the way piles are built.
export function sortKings(cards) {
  const key = (card) => (13 - value(card)) * 10 + SUIT_ORDER.indexOf(parseCard(card)?.suit);
  return [...cards].sort((a, b) => key(a) - key(b));
}

export function isCorner(space) {
  return CORNERS.includes(space);
}

// ``template`` with {name} placeholders filled by strings or DOM nodes (so a card can be shown with its suit).
export function tNodes(key, params = {}) {
  const text = t(key, Object.fromEntries(Object.keys(params).map((k) => [k, `\u0000${k}\u0000`])));
  return text.split("\u0000").map((part, i) => (i % 2 ? params[part] : part)).filter((p) => p !== "");
}

// A small inline card: rank and suit in the suit's colour.
export function chip(card) {
  const c = parseCard(card);
  if (!c) return h("span", { class: "kc-chip on-paper", text: "?" });
  return h("span", { class: `kc-chip on-paper suit-${DECK}-${c.suit}`, title: cardName(card, DECK) },
    h("b", { text: rankLetter(c.rank) }), suitIcon(c.suit, DECK, 12));
}

export function spaceName(space) {
  return t(`kc_space_${space}`);
}

// One pile as a button: its bottom card, its top card over it, and its length.
export function pileEl(space, cards, marks = {}, onTap = null) {
  const corner = isCorner(space);
  const n = cards.length;
  const classes = ["kc-pile", corner ? "corner" : "side", n ? "" : "empty", n > 1 ? "fanned" : "",
    marks.target ? "target" : "", marks.source ? "source" : "", marks.movable ? "movable" : "",
    marks.flash ? "flash" : ""].filter(Boolean).join(" ");
  const label = n === 0
    ? t(corner ? "kc_pile_empty_corner" : "kc_pile_empty_side", { space: spaceName(space) })
    : n === 1 ? t("kc_pile_one", { space: spaceName(space), card: cardName(cards[0], DECK) })
      : tn("kc_pile_aria", n, { space: spaceName(space), bottom: cardName(cards[0], DECK), top: cardName(cards[n - 1], DECK) });
  const stack = h("div", { class: "kc-stack", "aria-hidden": "true" });
  if (n === 0) stack.append(h("div", { class: "kc-slot", text: corner ? t("kc_slot_king") : "" }));
  else {
    stack.append(cardEl(cards[0], DECK, { classes: "kc-bottom" }));
    if (n > 2) stack.append(h("div", { class: "kc-depth", "aria-hidden": "true" }));
    if (n > 1) stack.append(cardEl(cards[n - 1], DECK, { classes: "kc-top" }));
  }
  // The pile is named by words in the page, not an aria-label, so a page translator translates them too; the short
  // name, the cards and the count are drawn for the eye and hidden from screen readers, which hear the words.
  const el = h("button", { class: classes, type: "button", dataset: { space, count: String(n) },
    onclick: onTap ? () => onTap(space) : null },
  h("span", { class: "sr-only", text: label }),
  h("span", { class: "kc-label", "aria-hidden": "true", text: t(`kc_short_${space}`) }),
  stack,
  n > 1 ? h("span", { class: "kc-count", "aria-hidden": "true", text: String(n) }) : null);
  if (!onTap) el.disabled = true;
  return el;
}

export function stockEl(count) {
  return h("div", { class: `kc-stock${count ? "" : " empty"}`, "aria-label": tn("kc_stock_n", count) },
    count ? backEl("kc-stock-card") : h("div", { class: "kc-slot" }),
    h("span", { class: "kc-stock-n", text: tn("kc_stock_n", count) }));
}

// The plus of sides around the stock and the four corners, each cell marked by ``marksOf(space)``.
export function boardEl(piles, stock, marksOf, onTap) {
  return h("div", { class: "kc-board", role: "group", "aria-label": t("kc_board") },
    GRID.map((space) => (space === "stock" ? stockEl(stock)
      : pileEl(space, piles[space] || [], marksOf(space), onTap))));
}

// An opponent (or the watcher's view of a seat): name, cards held, turn and the scoring's figure.
export function seatEl(seat, { name, info, count, turn, winner, figure }) {
  const aiTag = t("ai");
  return h("div", { class: `player kc-seat${turn ? " turn" : ""}${winner ? " winner" : ""}`, dataset: { seat: String(seat) } },
    h("div", { class: "pline" },
      h("span", { class: "pname", dir: "auto", text: name }),
      info && (info.is_ai || info.autopilot) && !name.includes(aiTag) ? h("span", { class: "badge ai", text: aiTag }) : null,
      winner ? h("span", { class: "kc-crown", "aria-label": t("kc_winner"), text: "♛" }) : null),
    h("div", { class: "pline small" },
      h("span", { class: "count" }, backEl("mini"), h("span", { class: "kc-n", text: tn("cards_n", count) })),
      figure ? h("span", { class: "kc-figure", text: figure }) : null));
}

// The words for one public event of a turn, or null for events that are not a move.
export function eventNodes(e) {
  switch (e.type) {
    case "built": return tNodes("kc_log_built", { card: chip(e.card), space: t(`kc_short_${e.space}`) });
    case "king_placed": return tNodes("kc_log_king", { card: chip(e.card), space: t(`kc_short_${e.corner}`) });
    case "side_filled": return tNodes("kc_log_filled", { card: chip(e.card), space: t(`kc_short_${e.side}`) });
    case "pile_moved": return tNodes("kc_log_moved", { src: t(`kc_short_${e.src}`), dst: t(`kc_short_${e.dst}`),
      n: String(e.cards.length) });
    case "corner_collected": return tNodes("kc_log_collected", { space: t(`kc_short_${e.corner}`) });
    case "drew": return e.cards ? tNodes("kc_log_drew_cards", { cards: h("span", {}, e.cards.map(chip)) })
      : tNodes("kc_log_drew", { n: String(e.count) });
    case "went_out": return [t("kc_log_went_out")];
    case "blocked": return [t("kc_log_blocked")];
    default: return null;
  }
}

// A turn as one line: "Bob: 8♣ on N · K♥ to NE · drew 1"; ``passed`` when it ended with nothing done.
export function turnLine(seat, events, name, current) {
  const parts = events.map(eventNodes).filter(Boolean);
  const ended = events.some((e) => e.type === "turn_ended");
  if (!parts.length && !ended) return null;
  const evs = h("span", { class: "kc-evs" });
  const line = h("div", { class: `kc-turn${current ? " current" : ""}`, dataset: { seat: String(seat) } },
    h("b", { class: "kc-who", text: t("kc_log_who", { name }) }), evs);
  if (!parts.length) parts.push([t("kc_log_passed")]);
  // One line per turn: a long turn shows its latest moves.
  if (parts.length > MAX_LOG_PARTS) {
    parts.splice(0, parts.length - MAX_LOG_PARTS + 1);
    evs.append(h("span", { class: "kc-sep", text: "…" }));
  }
  parts.forEach((p, i) => {
    if (i) evs.append(h("span", { class: "kc-sep", "aria-hidden": "true", text: "·" }));
    evs.append(h("span", { class: "kc-ev" }, p));
  });
  // newest first in the line's right-to-left layout (table.css), so the oldest moves are the ones left out
  [...evs.children].forEach((el, i) => { el.style.order = String(-i); });
  return line;
}

// Recent public events split into turns, each {seat, events}; turn_ended closes a turn.
export function splitTurns(events) {
  const turns = [];
  let cur = null;
  for (const e of events) {
    if (typeof e.seat !== "number" && e.type !== "blocked") continue;
    const seat = typeof e.seat === "number" ? e.seat : cur && cur.seat;
    if (!cur || cur.seat !== seat || cur.closed) {
      cur = { seat, events: [], closed: false };
      turns.push(cur);
    }
    cur.events.push(e);
    if (e.type === "turn_ended") cur.closed = true;
  }
  return turns;
}

// Legal actions by what is tapped first: a card (byCard: card -> space -> action) or a pile (byPile), and end_turn.
export function legalMoves(legal) {
  const byCard = new Map();
  const byPile = new Map();
  let end = null;
  const add = (map, key, space, action) => {
    if (!map.has(key)) map.set(key, new Map());
    map.get(key).set(space, action);
  };
  for (const a of legal) {
    if (a.type === "build") add(byCard, a.card, a.space, a);
    else if (a.type === "place_king") add(byCard, a.card, a.corner, a);
    else if (a.type === "fill_side") add(byCard, a.card, a.side, a);
    else if (a.type === "move_pile") add(byPile, a.src, a.dst, a);
    else if (a.type === "move_king_pile") add(byPile, a.side, a.corner, a);
    else if (a.type === "end_turn") end = a;
  }
  return { byCard, byPile, end };
}

// The end: how the game was decided, every seat in place order with its figure, Play again and the full result.
export function resultEl(s, name, scoreText, { again, show }) {
  const order = [...Array(s.players).keys()].sort((a, b) => (s.placements[a] || 9) - (s.placements[b] || 9));
  let how = t("kc_how_out");
  if (s.blocked) how = t(`kc_how_blocked_${s.options.scoring}`);
  else if (s.options.scoring !== "first_out") how = t(`kc_how_${s.options.scoring}`);
  return h("div", { class: "kc-result" },
    h("p", { class: "kc-how", text: how }),
    h("ol", { class: "kc-places" }, order.map((seat) => h("li", { class: s.winners.includes(seat) ? "first" : "" },
      h("span", { class: "place", text: String(s.placements[seat] || "") }),
      h("span", { class: "pname", dir: "auto", text: name(seat) }),
      h("span", { class: "pscore", text: scoreText(seat, s.scores[seat]) })))),
    h("div", { class: "row" },
      h("button", { class: "btn primary kc-again", type: "button", text: t("play_again"), onclick: again }),
      h("button", { class: "btn kc-show-result", type: "button", text: t("show_result"), onclick: show })));
}

// What a seat has earned so far, where the scoring counts something besides going out.
export function seatFigure(s, seat) {
  if (s.options.scoring === "corners") return tn("kc_corners_n", s.collected[seat]);
  if (s.options.scoring === "penalty") return tn("kc_total_n", s.totals[seat]);
  return null;
}

export { cardEl, cardName };
