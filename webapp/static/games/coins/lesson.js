// The guided first game of Coins: what the coach says, when, and what it rings (coach.js runs it). Every hint
// comes from the player's own view: their hand, the cards on the table, the scores, and who takes a trick and why
// (the server's rules say so in the view; the page never works it out).

import { t } from "../../shell/i18n.js";
import { cardName, parseCard, suitName } from "../../shell/cards.js";
import { isOneTap } from "../../shell/one_tap.js";

const DECK = "spanish";
const STRENGTH = { A: 13, K: 12, N: 11, J: 10 };
// The view's trick type (coins/RULES.md §3.3) as the number of suits in the trick, which names the coach's words.
const KIND = { 1: "three", 2: "two", 3: "one" };

const strength = (card) => STRENGTH[parseCard(card).rank] || Number(parseCard(card).rank);
const suitOf = (card) => parseCard(card).suit;
const cardSel = (card) => `.hand .card[data-card="${card}"]`;

// The card the coach rings on your turn, and why: when you play last, one that takes the trick (the server names
// those), a Coin first since it scores a point of its own, else the lowest; otherwise a low one that gives no
// points away.
function suggestion(s) {
  const hand = s.hand || [];
  const coin = (card) => suitOf(card) === "coins";
  const cheap = [...hand].sort((a, b) => coin(a) - coin(b) || strength(a) - strength(b));
  if (s.trick.length === 2) {
    const winning = [...(s.taking || [])].sort((a, b) => coin(b) - coin(a) || strength(a) - strength(b));
    if (winning.length) return { card: winning[0], why: t("coach_coins_why_win") };
    return { card: cheap[0], why: t("coach_coins_why_low") };
  }
  return { card: cheap[0], why: s.trick.length ? t("coach_coins_why_low") : t("coach_coins_why_lead") };
}

// The trick just taken, as the view tells who took it and by which rule: {seat, kind, card, missing, odd}, or null.
function taken(s, won) {
  const why = s.last_trick_why;
  if (!won || !won.whole || !why || why.seat !== won.seat || (s.last_trick || []).length !== 3) return null;
  const card = s.last_trick.find((p) => p.seat === why.seat).card;
  return { seat: why.seat, kind: KIND[why.type], card, missing: why.missing,
    odd: why.odd === null ? null : s.last_trick[why.odd].card };
}

export function facts(view, events, memory, screen) {
  const s = view.state;
  let won = null;
  let newHand = false;
  memory.seen = memory.seen || 0; // cards of the trick in play this page saw played: a trick is told when seen whole
  for (const e of events) {
    if (e.type === "played") memory.seen += 1;
    else if (e.type === "trick_won") {
      won = { seat: e.seat, points: e.points || 0, whole: memory.seen >= 3 };
      memory.seen = 0;
    } else if (e.type === "dealt" && e.hand_no > 1) newHand = true;
  }
  const mine = s.phase === "play" && view.you !== null && s.to_act.includes(view.you);
  return {
    s, view, won, newHand, mine, over: s.phase !== "play", taken: taken(s, won),
    name: (seat) => screen.seatName(seat),
    hint: mine ? suggestion(s) : null,
  };
}

// What a finished trick teaches: the winner, the card and the reason, in the rules' own terms (from the view).
function trickWords(f) {
  const { kind, card } = f.taken;
  const params = { name: f.name(f.taken.seat), card: cardName(card, DECK), suit: suitName(suitOf(card), DECK) };
  if (kind === "three") return t("coach_coins_trick_three", { ...params, missing: suitName(f.taken.missing, DECK) });
  if (kind === "two") return t("coach_coins_trick_two", { ...params, odd: cardName(f.taken.odd, DECK) });
  return t("coach_coins_trick_one", params);
}

const trickStep = (kind) => ({
  id: `trick_${kind}`, ack: true, when: (f) => Boolean(f.taken && f.taken.kind === kind), say: trickWords,
  focus: () => ".trick.done .card.win",
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
  // a good card ringed on every turn: the first time with the rule that any card may be played
  ...["first_play", "second_play"].map((id) => ({
    id, again: id !== "first_play", when: (f) => f.mine && Boolean(f.hint), until: (f) => !f.mine || f.over,
    say: (f) => `${t(id !== "first_play" ? "coach_coins_your_turn" : isOneTap() ? "coach_coins_any_card_one_tap" : "coach_coins_any_card")} ${t("coach_coins_ringed", { card: cardName(f.hint.card, DECK), why: f.hint.why })}`,
    focus: (f) => cardSel(f.hint.card),
  })),
];
