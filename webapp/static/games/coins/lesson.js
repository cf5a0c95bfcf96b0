// The guided first game of Coins: what the coach says, when, and what it rings (coach.js runs it). Every hint
// comes from the player's own view: their hand, the cards on the table, the scores.

import { t } from "../../shell/i18n.js";
import { cardName, parseCard, suitName } from "../../shell/cards.js";

const DECK = "spanish";
// ``cycle`` is the view's suit_cycle, in which each suit beats the next (coins/RULES.md §1.2).
const beats = (cycle, a, b) => cycle[(cycle.indexOf(a) + 1) % cycle.length] === b;
const STRENGTH = { A: 13, K: 12, N: 11, J: 10 };

const strength = (card) => STRENGTH[parseCard(card).rank] || Number(parseCard(card).rank);
const suitOf = (card) => parseCard(card).suit;
const cardSel = (card) => `.hand .card[data-card="${card}"]`;

// Who takes a trick of three cards and why (coins/RULES.md §3.3): {index, kind: "one"|"two"|"three", ...}.
export function judge(cards, cycle) {
  const suits = cards.map(suitOf);
  const present = new Set(suits);
  if (present.size === 3) {
    const index = suits.findIndex((s) => !suits.some((o) => beats(cycle, o, s)));
    return { index, kind: "three", missing: cycle.find((s) => !present.has(s)) };
  }
  const pair = present.size === 2 ? suits.find((s) => suits.filter((o) => o === s).length === 2) : suits[0];
  let index = -1;
  cards.forEach((card, i) => { if (suitOf(card) === pair && (index < 0 || strength(card) > strength(cards[index]))) index = i; });
  return { index, kind: present.size === 2 ? "two" : "one", odd: cards.find((c) => suitOf(c) !== pair) };
}

// The card the coach rings on your turn, and why: one that takes the trick when you play last, else a low one
// that gives no points away.
function suggestion(s) {
  const hand = s.hand || [];
  const cheap = [...hand].sort((a, b) => (suitOf(a) === "coins") - (suitOf(b) === "coins") || strength(a) - strength(b));
  if (s.trick.length === 2) {
    const winning = hand.filter((card) => judge([...s.trick.map((p) => p.card), card], s.suit_cycle).index === 2)
      .sort((a, b) => strength(a) - strength(b));
    if (winning.length) return { card: winning[0], why: t("coach_coins_why_win") };
    return { card: cheap[0], why: t("coach_coins_why_low") };
  }
  return { card: cheap[0], why: s.trick.length ? t("coach_coins_why_low") : t("coach_coins_why_lead") };
}

export function facts(view, events, memory, screen) {
  const s = view.state;
  memory.plays = memory.plays || [];
  let won = null;
  let newHand = false;
  for (const e of events) {
    if (e.type === "played") {
      if (memory.plays.length === 3) memory.plays = [];
      memory.plays.push({ seat: e.seat, card: e.card });
    } else if (e.type === "trick_won") {
      won = { seat: e.seat, points: e.points || 0, plays: memory.plays };
      memory.plays = [];
    } else if (e.type === "dealt" && e.hand_no > 1) newHand = true;
  }
  const mine = s.phase === "play" && view.you !== null && s.to_act.includes(view.you);
  return {
    s, view, won, newHand, mine, over: s.phase !== "play",
    name: (seat) => screen.seatName(seat),
    hint: mine ? suggestion(s) : null,
  };
}

// What a finished trick teaches: the winner, the card and the reason, in the rules' own terms.
function trickWords(f) {
  const cards = f.won.plays.map((p) => p.card);
  const verdict = judge(cards, f.s.suit_cycle);
  const card = cards[verdict.index];
  const params = { name: f.name(f.won.seat), card: cardName(card, DECK), suit: suitName(suitOf(card), DECK) };
  if (verdict.kind === "three") {
    return t("coach_coins_trick_three", { ...params, missing: suitName(verdict.missing, DECK) });
  }
  if (verdict.kind === "two") return t("coach_coins_trick_two", { ...params, odd: cardName(verdict.odd, DECK) });
  return t("coach_coins_trick_one", params);
}

const trickOf = (kind) => (f) => Boolean(f.won && f.won.plays.length === 3 && judge(f.won.plays.map((p) => p.card), f.s.suit_cycle).kind === kind);
const trickStep = (kind) => ({
  id: `trick_${kind}`, ack: true, when: trickOf(kind), say: trickWords, focus: () => ".trick.done .card.win",
});

export const steps = [
  { id: "welcome", ack: true, when: () => true, say: (f) => t("coach_coins_welcome", { n: f.s.target_score }), focus: () => ".hand" },
  { id: "cycle", ack: true, when: () => true, say: () => t("coach_coins_cycle"), focus: () => ".cycle" },
  trickStep("two"),
  trickStep("one"),
  trickStep("three"),
  {
    id: "points", ack: true, when: (f) => Boolean(f.won && f.won.points),
    say: (f) => t("coach_coins_points", { name: f.name(f.won.seat), n: f.won.points, target: f.s.target_score }),
    focus: (f) => `.player[data-seat="${f.won.seat}"] .points`,
  },
  { id: "new_hand", ack: true, when: (f) => f.newHand, say: (f) => t("coach_coins_new_hand", { target: f.s.target_score }) },
  {
    id: "watch", when: (f) => !f.mine && !f.over && f.s.trick.length < 3, until: (f) => f.mine || f.over,
    say: (f) => t("coach_coins_watch", { name: f.name(f.s.turn) }), focus: (f) => `.player[data-seat="${f.s.turn}"]`,
  },
  ...["first_play", "second_play"].map((id) => ({
    id, when: (f) => f.mine && Boolean(f.hint), until: (f) => !f.mine || f.over,
    say: (f) => `${t(id === "first_play" ? "coach_coins_any_card" : "coach_coins_your_turn")} ${t("coach_coins_ringed", { card: cardName(f.hint.card, DECK), why: f.hint.why })}`,
    focus: (f) => cardSel(f.hint.card),
  })),
];
