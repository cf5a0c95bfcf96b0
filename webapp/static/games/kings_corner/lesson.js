// The guided first game of Kings in the Corner: building down in alternating colours, Kings to the corners,
// moving piles, empty sides and ending a turn, each told every time the player can do it, so every decision of
// the game is coached (coach.js runs it).

import { t } from "../../shell/i18n.js";
import { cardName } from "../../shell/cards.js";
import { spaceName } from "./parts.js";

const DECK = "french";
const cardSel = (card) => `.kc-hand .card[data-card="${card}"]`;
const pileSel = (space) => `.kc-board [data-space="${space}"]`;

// The part of the table the coach's panel keeps clear of, besides the trick.
export const board = ".kc-board";

export function facts(view, events, memory, screen) {
  const s = view.state;
  const mine = !s.over && view.you !== null && s.turn === view.you;
  const legal = mine ? s.legal || [] : [];
  const first = (type) => legal.find((a) => a.type === type) || null;
  return {
    s, mine, over: s.over, legal, first,
    only: (type) => legal.length > 0 && legal.every((a) => a.type === type),
    top: (space) => { const pile = s.piles[space] || []; return pile[pile.length - 1]; },
    name: (seat) => screen.seatName(seat),
  };
}

const moveOf = (f) => f.first("move_pile") || f.first("move_king_pile");
const moveSrc = (m) => m.src || m.side;
const moveDst = (m) => m.dst || m.corner;

export const steps = [
  { id: "welcome", ack: true, when: () => true, say: () => t("coach_kc_welcome"), focus: () => ".kc-board" },
  {
    id: "king", again: true, when: (f) => Boolean(f.first("place_king")), until: (f) => !f.first("place_king"),
    say: (f) => t("coach_kc_king", { card: cardName(f.first("place_king").card, DECK) }),
    focus: (f) => [cardSel(f.first("place_king").card), ...f.legal.filter((a) => a.type === "place_king").map((a) => pileSel(a.corner))],
  },
  {
    id: "build", again: true, when: (f) => Boolean(f.first("build")) && !f.first("place_king"), until: (f) => !f.mine,
    say: (f) => { const a = f.first("build"); return t("coach_kc_build", { card: cardName(a.card, DECK), top: cardName(f.top(a.space), DECK), pile: spaceName(a.space) }); },
    focus: (f) => { const a = f.first("build"); return a ? [cardSel(a.card), pileSel(a.space)] : []; },
  },
  {
    id: "move", again: true, when: (f) => Boolean(moveOf(f)), until: (f) => !moveOf(f),
    say: (f) => { const m = moveOf(f); return t("coach_kc_move", { src: spaceName(moveSrc(m)), dst: spaceName(moveDst(m)) }); },
    focus: (f) => { const m = moveOf(f); return m ? [pileSel(moveSrc(m)), pileSel(moveDst(m))] : []; },
  },
  {
    id: "fill", again: true, when: (f) => Boolean(f.first("fill_side")), until: (f) => !f.first("fill_side"),
    say: () => t("coach_kc_fill"),
    focus: (f) => { const a = f.first("fill_side"); return a ? [cardSel(a.card), pileSel(a.side)] : []; },
  },
  { id: "end_turn", again: true, when: (f) => f.only("end_turn"), until: (f) => !f.mine, say: () => t("coach_kc_end_turn"), focus: () => ".kc-end-turn" },
  {
    id: "watch", when: (f) => !f.mine && !f.over, until: (f) => f.mine || f.over,
    say: (f) => t("coach_kc_watch", { name: f.name(f.s.turn) }), focus: (f) => `.player[data-seat="${f.s.turn}"]`,
  },
];
