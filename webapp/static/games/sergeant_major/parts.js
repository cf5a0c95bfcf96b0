// The pieces of the Sergeant Major table: seat panels, notes about the hand, the decision panels on the
// felt (bid, trumps, call, discard, give, swap, the end) and the line each event adds to the table's log.

import { h, clear } from "../../shell/dom.js";
import { t, tn, tNames } from "../../shell/i18n.js";
import { cardEl, backEl, cardName, rankLetter, suitIcon, suitName } from "../../shell/cards.js";
import { signed } from "../../shell/scoresheet.js";

export const DECK = "french";
export const SUITS = ["hearts", "spades", "diamonds", "clubs"]; // display order: the colours alternate
export { signed }; // the table's and the lesson's signed stakes are the score sheet's

const CALLS = ["hearts", "clubs", "diamonds", "spades", "no_trump", "misere"];
const MIN_BID = 8;
const MAX_BID = 16;
const TROPHY = '<svg viewBox="0 0 24 24" width="40" height="40"><path d="M7 2h10v2h4v3a5 5 0 01-4.6 5A5 5 0 0113 15.9V19h3v3H8v-3h3v-3.1A5 5 0 017.6 12 5 5 0 013 7V4h4zm0 4H5v1a3 3 0 002 2.8zm10 0v3.8A3 3 0 0019 7V6z" fill="#e3a81b" stroke="#9a6b00" stroke-width=".6"/></svg>';

// A small inline card: rank and suit sign, in the suit's colour.
function chip(card) {
  const [rank, suit] = card.split("-");
  return h("span", { class: `sm-chip on-paper suit-${DECK}-${suit}`, title: cardName(card, DECK) },
    h("b", { text: rankLetter(rank) }), suitIcon(suit, DECK, 12));
}

export function chips(cards) {
  return h("span", { class: "sm-chips" }, (cards || []).map(chip));
}

export function callLabel(call) {
  return SUITS.includes(call) ? suitName(call, DECK) : t(`sm_call_${call}`);
}

function callIcon(call, size) {
  if (SUITS.includes(call)) return suitIcon(call, DECK, size);
  return h("span", { class: "sm-call-sign", "aria-hidden": "true", text: call === "misere" ? "✕" : t("sm_call_sign_no_trump") });
}

// The log line for an event as ``you`` may see it, or null: {text, cards}.
export function eventLine(e, you, name) {
  switch (e.type) {
    case "dealt": return e.seat === (you ?? 0) ? { text: t("new_hand", { n: e.hand_no, name: name(e.dealer) }) } : null;
    case "redeal": return { text: t("sm_redeal", { name: name(e.dealer) }) };
    case "bid": return { text: t("sm_bid_made", { name: name(e.seat), n: e.tricks }) };
    case "passed": return { text: t("sm_bid_pass", { name: name(e.seat) }) };
    case "bid_won": return { text: t("sm_bid_won", { name: name(e.seat), n: e.tricks }) };
    case "gave": // the notes above the felt list every exchange of the hand, so these only flash
      if (e.seat === you) return { text: t("sm_you_gave", { to: name(e.to) }), cards: e.cards, quiet: true };
      if (e.to === you) return { text: t("sm_gave_you", { from: name(e.seat) }), cards: e.cards, quiet: true };
      return { text: tn("sm_gave", e.count, { from: name(e.seat), to: name(e.to) }), quiet: true };
    case "returned":
      if (e.to === you) return { text: t("sm_returned_to_you", { from: name(e.seat) }), cards: e.cards, quiet: true };
      if (e.seat === you) return { text: t("sm_you_returned", { to: name(e.to) }), cards: e.cards, quiet: true };
      return { text: tn("sm_returned", e.count, { from: name(e.seat), to: name(e.to) }), quiet: true };
    case "trump_named": return { text: t("sm_named", { name: name(e.seat), suit: suitName(e.suit, DECK) }) };
    case "called": return { text: t("sm_called", { name: name(e.seat), call: callLabel(e.call) }) };
    case "took_kitty": return e.seat === you ? null : { text: t("sm_took_kitty", { name: name(e.seat) }) };
    case "discarded":
      return { text: e.seat === you ? t("sm_you_discarded") : t("sm_discarded", { name: name(e.seat) }), cards: e.cards };
    case "kitty_shown": return e.cards ? { text: t("sm_kitty_shown", { name: name(e.dealer) }), cards: e.cards } : null;
    case "swapped": return { text: t("sm_swapped", { name: name(e.seat) }), cards: [e.took] };
    case "declined_swap": return { text: t("sm_declined", { name: name(e.seat) }) };
    case "trick_won": return { text: t("took_trick", { name: name(e.seat) }), quiet: true };
    default: return null;
  }
}

// The felt's panel for a phase other than the tricks.
export function decisionPanel(tb, s) {
  const panel = h("div", { class: "sm-panel" });
  if (s.phase === "bid") bidPanel(tb, s, panel);
  else if (s.phase === "trump") trumpPanel(tb, s, panel);
  else if (s.phase === "call") callPanel(tb, s, panel);
  else if (s.phase === "kitty") kittyPanel(tb, s, panel);
  else if (s.phase === "exchange") exchangePanel(tb, s, panel);
  else if (s.phase === "swap") swapPanel(tb, s, panel);
  else if (s.phase === "over") overPanel(tb, s, panel);
  if (s.phase !== "over" && tb.log.length) {
    panel.append(h("ul", { class: "sm-log" }, tb.log.map((x) => h("li", {}, x.text, x.cards ? chips(x.cards) : null))));
  }
  return panel;
}

export function playerPanel(tb, seat, where) {
  const s = tb.state;
  const info = tb.ctx.seatInfo(seat) || {};
  const pos = s.positions[seat];
  const target = s.targets[seat];
  const won = s.tricks[seat];
  const maximum = s.target_kind === "maximum";
  const turn = !s.over && s.turn === seat;
  const winner = s.over && s.winners.includes(seat);
  const pct = Math.min(100, Math.round((100 * won) / Math.max(1, target)));
  const made = maximum ? won <= target : won >= target;
  const tricks = h("span", { class: `sm-tricks${made && !maximum ? " made" : ""}${maximum && won > target ? " over" : ""}`,
    text: t(maximum ? "sm_tricks_max" : "sm_tricks", { n: won, target }) });
  return h("div", { class: `player ${where} sm-player${turn ? " turn" : ""}${winner ? " winner" : ""}`, dataset: { seat: String(seat) } },
    h("div", { class: "pline" },
      h("span", { class: `sm-pos pos-${pos}`, title: t(`sm_pos_${pos}_long`), text: t(`sm_pos_${pos}`) }),
      h("span", { class: "pname", dir: "auto", text: tb.ctx.name(seat) }),
      (info.is_ai || info.autopilot) && !tb.ctx.name(seat).includes(t("ai")) ? h("span", { class: "badge ai", text: t("ai") }) : null,
      bidTag(s, seat)),
    h("div", { class: "pline small" },
      where === "bottom" ? null : h("span", { class: "count" }, backEl("mini"), h("span", { text: String(s.hand_counts[seat]) })),
      tricks),
    h("div", { class: `bar${maximum ? " max" : ""}`, role: "progressbar", "aria-label": tb.ctx.name(seat),
      "aria-valuemin": "0", "aria-valuemax": String(target), "aria-valuenow": String(won), "aria-valuetext": tricks.textContent }, h("span", { style: `width:${pct}%` })),
    h("div", { class: "pline small sm-score" },
      prevBadge(s, seat),
      h("span", { class: "sm-total", text: t(s.score_kind === "running" ? "sm_total_running" : "sm_total_ledger",
        { n: signed(s.totals[seat]) }) })));
}

function bidTag(s, seat) {
  if (s.phase !== "bid" || !s.bidding) return null;
  if (s.bidding.passed.includes(seat)) return h("span", { class: "badge sm-bidtag sm-passed", text: t("sm_passed") });
  if (s.bidding.by === seat) return h("span", { class: "badge sm-bidtag sm-bid", text: String(s.bidding.high) });
  return null;
}

function prevBadge(s, seat) {
  if (!s.prev_result) return h("span", { class: "sm-prev none", text: "" });
  const r = s.prev_result[seat];
  const cls = r > 0 ? "up" : r < 0 ? "down" : "even";
  const text = r > 0 ? `▲${r}` : r < 0 ? `▼${-r}` : "±0";
  const title = r > 0 ? t("sm_prev_up", { n: r }) : r < 0 ? t("sm_prev_down", { n: -r }) : t("sm_prev_even");
  return h("span", { class: `sm-prev ${cls}`, title, "aria-label": title }, h("span", { class: "label", text: t("sm_last_hand") }),
    h("b", { text }));
}

export function renderNotes(tb, s) {
  clear(tb.notes);
  tb.notes.hidden = true;
  if (s.over) return;
  const name = (seat) => tb.ctx.name(seat);
  // the hand just over is told once, on the felt's hand-end card; each panel then keeps its change (prevBadge)
  for (const x of s.exchanges || []) {
    let line;
    if (x.gave && x.seat === tb.you) {
      line = [t("sm_you_gave", { to: name(x.to) }), chips(x.gave), t("sm_got_back"), chips(x.returned)];
    } else if (x.gave && x.to === tb.you) {
      line = [t("sm_gave_you", { from: name(x.seat) }), chips(x.gave), t("sm_you_returned_short"), chips(x.returned)];
    } else {
      line = [tn("sm_gave", x.count, { from: name(x.seat), to: name(x.to) })];
    }
    tb.notes.append(h("div", { class: "sm-note exchange" }, line));
  }
  for (const x of s.escrow || []) {
    const line = x.gave
      ? [x.seat === tb.you ? t("sm_you_gave", { to: name(x.to) }) : t("sm_gave_you", { from: name(x.seat) }), chips(x.gave)]
      : [tn("sm_gave", x.count, { from: name(x.seat), to: name(x.to) })];
    tb.notes.append(h("div", { class: "sm-note exchange" }, line));
  }
  if (s.shown && s.shown.length) {
    tb.notes.append(h("div", { class: "sm-note shown" }, t("sm_kitty_shown", { name: name(s.dealer) }), chips(s.shown)));
  }
  if (s.phase === "kitty" && s.discards && s.discards.length) {
    tb.notes.append(h("div", { class: "sm-note" }, t("sm_you_discarded"), chips(s.discards)));
  }
  tb.notes.hidden = !tb.notes.firstChild;
}

function waiting(panel, text) {
  panel.append(h("p", { class: "sm-wait" }, h("span", { class: "sm-dots", "aria-hidden": "true" }), h("span", { text })));
}

function bidPanel(tb, s, panel) {
  const b = s.bidding || { high: null, by: null, passed: [] };
  panel.append(h("h2", { text: t("sm_bid_title") }),
    h("p", { class: "sm-sub", text: b.high ? t("sm_high_bid", { n: b.high, name: tb.ctx.name(b.by) }) : t("sm_no_bid") }));
  if (!tb.isMyTurn()) {
    waiting(panel, t("sm_bidding", { name: tb.ctx.name(s.turn) }));
    return;
  }
  const low = Math.max(MIN_BID, (b.high || 0) + 1);
  const bids = [];
  for (let n = low; n <= MAX_BID; n += 1) {
    bids.push(h("button", { class: "btn sm-bid-btn", type: "button", dataset: { bid: String(n) }, text: String(n),
      "aria-label": t("sm_bid_n", { n }), onclick: () => tb.send({ type: "bid", tricks: n }) }));
  }
  panel.append(h("p", { class: "hint", text: t("sm_bid_explained") }),
    h("div", { class: "sm-bids" }, bids),
    h("button", { class: "btn sm-pass-btn", type: "button", text: t("sm_pass"), onclick: () => tb.send({ type: "pass" }) }));
}

function trumpPanel(tb, s, panel) {
  if (!tb.isMyTurn()) {
    panel.append(h("h2", { text: t("sm_trumps") }));
    waiting(panel, t("sm_naming", { name: tb.ctx.name(s.turn) }));
    return;
  }
  panel.append(h("h2", { text: t("sm_name_trumps") }),
    h("div", { class: "sm-suits" }, SUITS.map((suit) => h("button", {
      class: `btn sm-suit-btn on-paper suit-${DECK}-${suit}`, type: "button", dataset: { suit },
      onclick: () => tb.send({ type: "name_trump", suit }) },
    suitIcon(suit, DECK, 30), h("span", { text: suitName(suit, DECK) })))));
}

function callPanel(tb, s, panel) {
  const dealer = s.turn;
  const used = (s.calls_used && s.calls_used[dealer]) || [];
  if (!tb.isMyTurn()) {
    panel.append(h("h2", { text: t("sm_call") }));
    waiting(panel, t("sm_calling", { name: tb.ctx.name(dealer) }));
    if (used.length) panel.append(h("p", { class: "sm-sub", text: t("sm_calls_used", { calls: used.map(callLabel).join(", ") }) }));
    return;
  }
  const left = new Set(s.calls_left || CALLS.filter((c) => !used.includes(c)));
  panel.append(h("h2", { text: t("sm_make_call") }), h("p", { class: "hint", text: t("sm_calls_explained") }),
    h("div", { class: "sm-calls" }, CALLS.map((call) => {
      const spent = !left.has(call);
      return h("button", { class: `btn sm-call-btn on-paper${SUITS.includes(call) ? ` suit-${DECK}-${call}` : ""}${spent ? " used" : ""}`,
        type: "button", disabled: spent, dataset: { call }, onclick: () => tb.send({ type: "call", call }) },
      callIcon(call, 24), h("span", { text: callLabel(call) }),
      spent ? h("small", { text: t("sm_used") }) : null);
    })));
}

function choosePanel(tb, choice, panel, title, hint) {
  const n = choice.count;
  panel.append(h("h2", { text: title }),
    h("p", { class: "sm-count", text: t("sm_chosen", { k: tb.chosen.size, n }) }),
    hint ? h("p", { class: "hint", text: hint }) : null);
}

function kittyPanel(tb, s, panel) {
  const choice = tb.myChoice();
  if (choice && choice.type === "discard") {
    const taken = s.kitty && s.kitty.length;
    choosePanel(tb, choice, panel, tn("sm_discard_title", choice.count),
      taken ? t("sm_discard_after") : t("sm_discard_before"));
  } else {
    panel.append(h("h2", { text: t("sm_kitty") }));
    waiting(panel, t("sm_discarding", { name: tb.ctx.name(s.turn) }));
  }
  if (s.kitty_count) {
    const backs = [];
    for (let i = 0; i < s.kitty_count; i += 1) backs.push(backEl());
    panel.append(h("div", { class: "sm-kitty", role: "group", "aria-label": t("sm_kitty") }, backs));
  }
}

function exchangePanel(tb, s, panel) {
  const choice = tb.myChoice();
  if (choice && choice.type === "give") {
    const to = tb.ctx.name(choice.to);
    choosePanel(tb, choice, panel, tn("sm_give_title", choice.count, { name: to }), t("sm_give_hint", { name: to }));
  } else {
    panel.append(h("h2", { text: t("sm_exchange") }));
    const now = (s.pending_exchanges || [])[0];
    waiting(panel, now ? tn("sm_gives", now.count, { from: tb.ctx.name(now.seat), to: tb.ctx.name(now.to) })
      : t("sm_to_act", { name: tb.ctx.name(s.turn) }));
  }
  const later = (s.pending_exchanges || []).slice(1);
  if (later.length) {
    panel.append(h("p", { class: "sm-sub", text: t("sm_then", { list: later.map((x) =>
      tn("sm_gives", x.count, { from: tb.ctx.name(x.seat), to: tb.ctx.name(x.to) })).join("; ") }) }));
  }
}

function swapPanel(tb, s, panel) {
  if (!tb.isMyTurn()) {
    panel.append(h("h2", { text: t("sm_swap_title_other") }));
    waiting(panel, t("sm_swapping", { name: tb.ctx.name(s.turn) }));
    return;
  }
  panel.append(h("h2", { text: t("sm_swap_title") }),
    h("div", { class: "sm-swap-cards" }, cardEl("2-diamonds", DECK), h("span", { class: "sm-arrow", text: "⇄" }),
      s.face_up ? cardEl(s.face_up, DECK) : null),
    h("div", { class: "row" },
      h("button", { class: "btn primary sm-swap-btn", type: "button", text: t("sm_swap"), onclick: () => tb.send({ type: "swap" }) }),
      h("button", { class: "btn sm-keep-btn", type: "button", text: t("sm_keep"), onclick: () => tb.send({ type: "decline_swap" }) })));
}

function overPanel(tb, s, panel) {
  const winners = s.winners || [];
  const me = tb.you !== null && winners.includes(tb.you);
  let text;
  if (me && winners.length === 1) text = t("you_won");
  else if (winners.length > 1) text = tNames("sm_co_winners", winners.map((w) => tb.ctx.name(w)));
  else text = t("sm_won_game", { name: tb.ctx.name(winners[0]) });
  panel.classList.add("over");
  const trophy = h("div", { class: "sm-trophy", "aria-hidden": "true" });
  trophy.innerHTML = TROPHY;
  panel.append(trophy, h("h2", { class: "sm-winner", text }));
  if (s.score_kind === "ledger" && winners.length === 1) {
    panel.append(h("p", { class: "sm-sub", text: t("sm_won_with", { n: s.tricks[winners[0]], hand: s.hand_no }) }));
  }
  // Stakes come only from finished hands (SM-D28): a game won in its first hand has none to show.
  const stakes = s.score_kind === "running" || (s.history || []).length > 0;
  panel.append(h("table", { class: "sm-final" },
    h("thead", {}, h("tr", {}, h("th", {}), h("th", { text: t("sm_col_tricks") }),
      stakes ? h("th", { text: t(s.score_kind === "running" ? "sm_col_score" : "sm_col_stakes") }) : null)),
    h("tbody", {}, [0, 1, 2].map((seat) => h("tr", { class: winners.includes(seat) ? "win" : "" },
      h("td", {}, h("bdi", { text: tb.ctx.name(seat) })), h("td", { text: `${s.tricks[seat]}/${s.targets[seat]}` }),
      stakes ? h("td", { text: signed(s.totals[seat]) }) : null)))));
}
