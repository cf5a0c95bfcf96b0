// The guided first game of Sergeant Major: trumps, the kitty, following suit and tricks, each told when it happens,
// and the card to play ringed on every turn (coach.js runs it); up and down and the exchange are told too if a
// game goes on past its first hand. Every hint comes from the player's own view.

import { t } from "../../shell/i18n.js";
import { cardName, parseCard, suitName } from "../../shell/cards.js";
import { signed } from "../../shell/scoresheet.js";

const DECK = "french";
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = ["hearts", "diamonds", "clubs", "spades"];

const rank = (card) => RANKS.indexOf(parseCard(card).rank);
const suitOf = (card) => parseCard(card).suit;
const cardSel = (card) => `.hand .card[data-card="${card}"]`;

// Low cards that are not trumps first: the ones to give or throw away.
const cheapest = (cards, trump, n) => [...cards].sort((a, b) => (suitOf(a) === trump) - (suitOf(b) === trump)
  || rank(a) - rank(b)).slice(0, n);

function longestSuit(hand) {
  const weight = (suit) => hand.filter((c) => suitOf(c) === suit).reduce((sum, c) => sum + 20 + rank(c), 0);
  return [...SUITS].sort((a, b) => weight(b) - weight(a))[0];
}

// On your turn to play: the lowest legal card that takes the trick so far (the server names those), else the
// lowest; leading, the highest.
function playHint(s) {
  const legal = [...(s.legal || [])].sort((a, b) => rank(a) - rank(b));
  if (!legal.length) return null;
  if (!s.trick.length) return legal[legal.length - 1];
  const taking = new Set(s.taking || []);
  return legal.find((card) => taking.has(card)) || legal[0];
}

// The trick just taken, as the view tells who took it and by which rule of §3.2 step 8: {seat, by, card, led}
// (``by``: "high", "trump" or "trump_led"), or null.
function taken(s, won) {
  const why = s.last_trick_why;
  if (!won || !why || why.seat !== won.seat || !(s.last_trick || []).length) return null;
  const card = s.last_trick.find((p) => p.seat === why.seat).card;
  return { seat: why.seat, by: why.by, card, led: suitOf(s.last_trick[0].card) };
}

export function facts(view, events, memory, screen) {
  const s = view.state;
  let won = null;
  let handOver = null;
  let named = null;
  for (const e of events) {
    if (e.type === "trick_won") won = { seat: e.seat };
    else if (e.type === "hand_over") handOver = e;
    else if (e.type === "trump_named") named = e;
  }
  const you = view.you;
  const mine = !s.over && you !== null && s.turn === you;
  const choice = mine ? s.choose : null;
  const led = s.trick.length ? suitOf(s.trick[0].card) : null;
  return {
    s, you, won, handOver, named, mine, choice, led, over: s.over, taken: taken(s, won),
    hand: s.hand_no, ended: handOver ? handOver.hand_no : null, // the hand on the table; the hand just ended
    canFollow: led !== null && (s.hand || []).some((c) => suitOf(c) === led),
    play: mine && s.phase === "play" ? playHint(s) : null,
    name: (seat) => screen.seatName(seat),
  };
}

function trickWords(f) {
  const { seat, card, led, by } = f.taken;
  const params = { name: f.name(seat), card: cardName(card, DECK), suit: suitName(led, DECK) };
  return t(by === "trump" ? "coach_sm_trick_trump" : "coach_sm_trick_high", params);
}

function handWords(f) {
  const e = f.handOver;
  const rows = e.tricks.map((n, seat) => t("coach_sm_hand_row", { name: f.name(seat), n, target: e.targets[seat], result: signed(e.results[seat]) }));
  return t("coach_sm_hand_over", { rows: rows.join("; ") });
}

// The exchange this player took part in, once it is done: [{gave, returned, other, giver}].
function myExchanges(f) {
  return (f.s.exchanges || []).filter((x) => x.gave && (x.seat === f.you || x.to === f.you));
}

function exchangeWords(f) {
  return myExchanges(f).map((x) => {
    const names = (cards) => cards.map((c) => cardName(c, DECK)).join(", ");
    return x.seat === f.you
      ? t("coach_sm_exchange_gave", { name: f.name(x.to), gave: names(x.gave), back: names(x.returned) })
      : t("coach_sm_exchange_got", { name: f.name(x.seat), gave: names(x.gave), back: names(x.returned) });
  }).join(" ");
}

// The hands the coach teaches in (engine/service/lessons.py deals a game won within its first; a longer one is
// still coached to its third).
const HANDS = 3;
const TRICKS = 16; // in a hand of the classic game

// ``step`` once in each hand of the lesson from ``first``: its own id in that hand, then the hand after it
// ("give", "give_h3"), so every hand to the end has its moments to teach. ``handOf`` says which hand a moment
// belongs to (a hand's end comes in the frame that deals the next).
function eachHand(step, first = 1, handOf = (f) => f.hand) {
  return Array.from({ length: HANDS - first + 1 }, (_, i) => first + i).map((n) => ({
    ...step, id: n === first ? step.id : `${step.id}_h${n}`, when: (f) => handOf(f) === n && step.when(f),
  }));
}

// ``step`` at every trick of the lesson ("lead_h1_t1", ... "lead_h3_t16"): the card to play is ringed on every
// turn, so the coach has something to say until the game's last trick.
function eachTrick(step) {
  return eachHand(step).flatMap((inHand, i) => Array.from({ length: TRICKS }, (_, k) => ({
    ...inHand, id: `${step.id}_h${i + 1}_t${k + 1}`, when: (f) => f.s.trick_no === k && inHand.when(f),
  })));
}

const playStep = (id, when, key) => ({
  id, when: (f) => Boolean(f.play) && when(f), until: (f) => !f.mine || f.s.phase !== "play",
  say: (f) => `${t(key, { suit: f.led ? suitName(f.led, DECK) : "", trump: f.s.trump ? suitName(f.s.trump, DECK) : "" })} ${t("coach_sm_ringed", { card: cardName(f.play, DECK) })}`,
  focus: (f) => cardSel(f.play),
});

export const steps = [
  { id: "welcome", ack: true, when: () => true, say: () => t("coach_sm_welcome"), focus: () => ".scorebar" },
  {
    id: "trump", when: (f) => Boolean(f.mine && f.s.phase === "trump"), until: (f) => f.s.phase !== "trump",
    say: (f) => t("coach_sm_trump", { suit: suitName(longestSuit(f.s.hand || []), DECK) }),
    focus: (f) => `.sm-suit-btn[data-suit="${longestSuit(f.s.hand || [])}"]`,
  },
  {
    id: "kitty", when: (f) => Boolean(f.choice && f.choice.type === "discard"), until: (f) => !f.choice || f.choice.type !== "discard",
    say: () => t("coach_sm_kitty"),
    focus: (f) => cheapest(f.choice.from, f.s.trump, f.choice.count).map(cardSel),
  },
  { id: "trick_high", ack: true, when: (f) => Boolean(f.taken && f.taken.by === "high"), say: trickWords, focus: () => ".trick.done .card.win" },
  { id: "trick_trump", ack: true, when: (f) => Boolean(f.taken && f.taken.by === "trump"), say: trickWords, focus: () => ".trick.done .card.win" },
  ...eachHand({ id: "hand_over", ack: true, when: (f) => Boolean(f.handOver), say: handWords }, 1, (f) => f.ended),
  ...eachHand({
    id: "give", when: (f) => Boolean(f.choice && f.choice.type === "give"), until: (f) => !f.choice || f.choice.type !== "give",
    say: (f) => t("coach_sm_give", { name: f.name(f.choice.to), n: f.choice.count }),
    focus: (f) => cheapest(f.choice.from, null, f.choice.count).map(cardSel),
  }, 2),
  ...eachHand({ id: "exchange", ack: true, when: (f) => f.s.phase !== "exchange" && myExchanges(f).length > 0, say: exchangeWords, focus: () => ".hand .card.fresh" }, 2),
  ...eachHand({ id: "trump_named", ack: true, when: (f) => Boolean(f.named && f.named.seat !== f.you), say: (f) => t("coach_sm_trump_named", { name: f.name(f.named.seat), suit: suitName(f.named.suit, DECK) }), focus: () => ".sm-trump" }, 2),
  ...eachTrick(playStep("lead", (f) => !f.s.trick.length, "coach_sm_lead")),
  ...eachTrick(playStep("follow", (f) => f.s.trick.length > 0 && f.canFollow, "coach_sm_follow")),
  ...eachTrick(playStep("void", (f) => f.s.trick.length > 0 && !f.canFollow, "coach_sm_void")),
  ...eachHand({
    id: "watch", when: (f) => !f.mine && !f.over && f.s.phase === "play", until: (f) => f.mine || f.over,
    say: (f) => t("coach_sm_watch", { name: f.name(f.s.turn) }), focus: (f) => `.player[data-seat="${f.s.turn}"]`,
  }),
];
