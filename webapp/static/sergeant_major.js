// The Sergeant Major table for a phone in portrait: the bid, trumps or a call, the kitty, the exchange,
// the 2 of Diamonds swap and the tricks, with every seat's position, target, tricks and score.

import { h, clear, toast, formatClock } from "./dom.js";
import { t } from "./i18n.js";
import { cardEl, backEl, cardName, sortHand, suitIcon } from "./cards.js";
import * as tg from "./tg.js";

const DECK = "french";
const SUITS = ["hearts", "spades", "diamonds", "clubs"]; // display order: the colours alternate
const CALLS = ["hearts", "clubs", "diamonds", "spades", "no_trump", "misere"];
const MIN_BID = 8;
const MAX_BID = 16;
const LOG_SIZE = 3;

// The table's own rules, loaded before the first render (a top-level await holds the import until then).
await new Promise((resolve) => {
  const href = new URL("./sergeant_major.css", import.meta.url).href;
  if (document.querySelector(`link[href="${href}"]`)) { resolve(); return; }
  const link = h("link", { rel: "stylesheet", href });
  link.addEventListener("load", resolve);
  link.addEventListener("error", resolve);
  document.head.append(link);
});

export function createRenderer(container, ctx) {
  return new SergeantMajorTable(container, ctx);
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

// A small inline card: rank and suit sign, in the suit's colour.
function chip(card) {
  const [rank, suit] = card.split("-");
  return h("span", { class: `sm-chip suit-${DECK}-${suit}`, title: cardName(card, DECK) },
    h("b", { text: rank }), suitIcon(suit, DECK, 12));
}

function chips(cards) {
  return h("span", { class: "sm-chips" }, (cards || []).map(chip));
}

function callLabel(call) {
  return SUITS.includes(call) ? t(`suit_${call}`) : t(`sm_call_${call}`);
}

function callIcon(call, size) {
  if (SUITS.includes(call)) return suitIcon(call, DECK, size);
  return h("span", { class: "sm-call-sign", "aria-hidden": "true", text: call === "misere" ? "✕" : "NT" });
}

class SergeantMajorTable {
  constructor(container, ctx) {
    this.ctx = ctx;
    this.view = null;
    this.selected = null; // play: the card tapped once
    this.chosen = new Set(); // discard or give: the cards picked so far
    this.choiceKey = "";
    this.wasMyTurn = false;
    this.lastWinner = null;
    this.showLast = false;
    this.flashed = null;
    this.log = [];
    this.summary = null; // the last hand_over event
    this.el = h("div", { class: "sm-table" },
      this.scorebar = h("div", { class: "scorebar sm-scorebar" }),
      this.opps = h("div", { class: "opps" }),
      this.notes = h("div", { class: "sm-notes", "aria-live": "polite" }),
      this.felt = h("div", { class: "felt sm-felt" }),
      this.status = h("div", { class: "status", role: "status", "aria-live": "polite" }),
      this.me = h("div", { class: "me sm-me" }),
      this.hand = h("div", { class: "hand", role: "group", "aria-label": t("your_hand") }),
      this.actions = h("div", { class: "actions" }));
    container.append(this.el);
    this.clock = setInterval(() => this.renderClock(), 1000);
  }

  destroy() {
    clearInterval(this.clock);
    tg.mainButton(null);
    this.el.remove();
  }

  get you() {
    return this.view && typeof this.view.you === "number" ? this.view.you : null;
  }

  get state() {
    return this.view.state;
  }

  isMyTurn() {
    const s = this.state;
    return this.you !== null && !s.over && s.turn === this.you;
  }

  myChoice() {
    return this.isMyTurn() ? this.state.choose || null : null;
  }

  update(view, events) {
    const before = this.view ? this.view.state : null;
    this.view = view;
    for (const e of events || []) this.onEvent(e, before);
    const s = this.state;
    const hand = s.hand || [];
    const choice = this.myChoice();
    const key = choice ? `${s.hand_no}:${s.phase}:${choice.type}:${choice.to ?? ""}:${choice.count}` : "";
    if (key !== this.choiceKey) this.chosen.clear();
    this.choiceKey = key;
    for (const card of [...this.chosen]) if (!hand.includes(card)) this.chosen.delete(card);
    if (this.selected && (!hand.includes(this.selected) || s.phase !== "play")) this.selected = null;
    if (this.selected && this.isMyTurn() && !(s.legal || []).includes(this.selected)) this.selected = null;
    const mine = this.isMyTurn();
    if (mine && !this.wasMyTurn) tg.haptic("turn");
    this.wasMyTurn = mine;
    this.render();
  }

  refused() {
    this.render();
  }

  note(text, cards = null) {
    this.log.push({ text, cards });
    if (this.log.length > LOG_SIZE) this.log.shift();
    this.flashed = { text, until: Date.now() + 2500 };
  }

  onEvent(e, before) {
    const name = (seat) => this.ctx.name(seat);
    switch (e.type) {
      case "dealt":
        if (e.seat === this.you || (this.you === null && e.seat === 0)) {
          this.log = [];
          this.lastWinner = null;
          this.showLast = false;
          this.note(t("new_hand", { n: e.hand_no, name: name(e.dealer) }));
        }
        break;
      case "redeal":
        this.note(t("sm_redeal", { name: name(e.dealer) }));
        break;
      case "bid":
        this.note(t("sm_bid_made", { name: name(e.seat), n: e.tricks }));
        break;
      case "passed":
        this.note(t("sm_bid_pass", { name: name(e.seat) }));
        break;
      case "bid_won":
        this.note(t("sm_bid_won", { name: name(e.seat), n: e.tricks }));
        break;
      case "gave":
        if (e.seat === this.you) this.note(t("sm_you_gave", { to: name(e.to) }), e.cards);
        else if (e.to === this.you) this.note(t("sm_gave_you", { from: name(e.seat) }), e.cards);
        else this.note(t("sm_gave", { from: name(e.seat), to: name(e.to), n: e.count }));
        break;
      case "returned":
        if (e.to === this.you) this.note(t("sm_returned_to_you", { from: name(e.seat) }), e.cards);
        else if (e.seat === this.you) this.note(t("sm_you_returned", { to: name(e.to) }), e.cards);
        else this.note(t("sm_returned", { from: name(e.seat), to: name(e.to), n: e.count }));
        break;
      case "trump_named":
        this.note(t("sm_named", { name: name(e.seat), suit: t(`suit_${e.suit}`) }));
        break;
      case "called":
        this.note(t("sm_called", { name: name(e.seat), call: callLabel(e.call) }));
        break;
      case "took_kitty":
        if (e.seat !== this.you) this.note(t("sm_took_kitty", { name: name(e.seat) }));
        break;
      case "discarded":
        this.note(e.seat === this.you ? t("sm_you_discarded") : t("sm_discarded", { name: name(e.seat) }), e.cards);
        break;
      case "kitty_shown":
        if (e.cards) this.note(t("sm_kitty_shown", { name: name(e.dealer) }), e.cards);
        break;
      case "swapped":
        this.note(t("sm_swapped", { name: name(e.seat) }), [e.took]);
        break;
      case "declined_swap":
        this.note(t("sm_declined", { name: name(e.seat) }));
        break;
      case "play_started":
        this.showLast = false;
        break;
      case "played":
        if (before && before.trick.length === 0) this.showLast = false;
        break;
      case "trick_won":
        this.lastWinner = e.seat;
        this.flashed = { text: t("took_trick", { name: name(e.seat) }), until: Date.now() + 2500 };
        break;
      case "hand_over":
        this.summary = e;
        break;
      default:
        break;
    }
  }

  seatsAround() {
    const bottom = this.you === null ? 0 : this.you;
    return { bottom, left: (bottom + 1) % 3, right: (bottom + 2) % 3 };
  }

  render() {
    const s = this.state;
    const seats = this.seatsAround();
    this.el.dataset.phase = s.phase;
    this.renderScorebar(s);
    clear(this.opps).append(this.playerPanel(seats.left, "left"), this.playerPanel(seats.right, "right"));
    this.renderNotes(s);
    this.renderFelt(s, seats);
    this.renderStatus(s);
    clear(this.me).append(this.playerPanel(seats.bottom, "bottom"));
    this.renderHand(s);
    this.renderActions(s);
  }

  // --- the bar at the top: hand, trick, trumps ---------------------------------------------------

  renderScorebar(s) {
    const hand = s.last_hand ? t("sm_hand_of", { n: s.hand_no, of: s.last_hand }) : t("hand_n", { n: s.hand_no });
    const playing = s.phase === "play" || s.phase === "over";
    clear(this.scorebar).append(
      h("span", { class: "hand-no", text: hand }),
      playing ? h("span", { class: "trick-no",
        text: t("trick_n", { n: Math.min(s.trick_no + (s.trick.length ? 1 : 0), s.tricks_per_hand) || 1, of: s.tricks_per_hand }) }) : null,
      this.trumpChip(s));
  }

  trumpChip(s) {
    const parts = [];
    if (s.call === "misere") parts.push(h("span", { class: "sm-call-name", text: t("sm_call_misere") }));
    if (s.call === "no_trump") parts.push(h("span", { class: "sm-call-name", text: t("sm_call_no_trump") }));
    if (s.trump) {
      parts.push(suitIcon(s.trump, DECK, 16), h("span", { text: t(`suit_${s.trump}`) }));
    }
    if (!parts.length) {
      return h("span", { class: "sm-trump none" }, h("span", { class: "label", text: t("sm_trumps") }), h("span", { text: "–" }));
    }
    return h("span", { class: `sm-trump${s.trump ? ` suit-${DECK}-${s.trump}` : ""}`, dataset: { trump: s.trump || s.call || "" } },
      h("span", { class: "label", text: s.call && !SUITS.includes(s.call) ? t("sm_call") : t("sm_trumps") }), ...parts);
  }

  // --- the seats --------------------------------------------------------------------------------

  playerPanel(seat, where) {
    const s = this.state;
    const info = this.ctx.seatInfo(seat) || {};
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
        h("span", { class: "pname", text: this.ctx.name(seat) }),
        info.is_ai || info.autopilot ? h("span", { class: "badge ai", text: t("ai") }) : null,
        this.bidTag(s, seat)),
      h("div", { class: "pline small" },
        where === "bottom" ? null : h("span", { class: "count" }, backEl("mini"), h("span", { text: String(s.hand_counts[seat]) })),
        tricks),
      h("div", { class: `bar${maximum ? " max" : ""}`, role: "progressbar", "aria-valuemin": "0",
        "aria-valuemax": String(target), "aria-valuenow": String(won) }, h("span", { style: `width:${pct}%` })),
      h("div", { class: "pline small sm-score" },
        this.prevBadge(s, seat),
        h("span", { class: "sm-total", text: t(s.score_kind === "running" ? "sm_total_running" : "sm_total_ledger",
          { n: signed(s.totals[seat]) }) })));
  }

  bidTag(s, seat) {
    if (s.phase !== "bid" || !s.bidding) return null;
    if (s.bidding.passed.includes(seat)) return h("span", { class: "badge sm-passed", text: t("sm_passed") });
    if (s.bidding.by === seat) return h("span", { class: "badge sm-bid", text: String(s.bidding.high) });
    return null;
  }

  prevBadge(s, seat) {
    if (!s.prev_result) return h("span", { class: "sm-prev none", text: "" });
    const r = s.prev_result[seat];
    const cls = r > 0 ? "up" : r < 0 ? "down" : "even";
    const text = r > 0 ? `▲${r}` : r < 0 ? `▼${-r}` : "=";
    const title = r > 0 ? t("sm_prev_up", { n: r }) : r < 0 ? t("sm_prev_down", { n: -r }) : t("sm_prev_even");
    return h("span", { class: `sm-prev ${cls}`, title, "aria-label": title }, h("span", { class: "label", text: t("sm_last_hand") }),
      h("b", { text }));
  }

  // --- notes: the last hand's result, this hand's exchanges and kitty reveal --------------------

  renderNotes(s) {
    clear(this.notes);
    const name = (seat) => this.ctx.name(seat);
    const early = s.phase !== "play" || (s.trick_no === 0 && s.trick.length === 0);
    const summary = this.summary;
    if (summary && summary.hand_no === s.hand_no - 1 && early) {
      this.notes.append(h("div", { class: "sm-note summary" },
        h("b", { text: t("sm_hand_result", { n: summary.hand_no }) }),
        [0, 1, 2].map((seat) => h("span", { class: "sm-res" }, `${name(seat)} ${summary.tricks[seat]}/${summary.targets[seat]} `,
          h("b", { class: summary.results[seat] > 0 ? "up" : summary.results[seat] < 0 ? "down" : "", text: signed(summary.results[seat]) })))));
    }
    for (const x of s.exchanges || []) {
      let line;
      if (x.gave && x.seat === this.you) {
        line = [t("sm_you_gave", { to: name(x.to) }), chips(x.gave), t("sm_got_back"), chips(x.returned)];
      } else if (x.gave && x.to === this.you) {
        line = [t("sm_gave_you", { from: name(x.seat) }), chips(x.gave), t("sm_you_returned_short"), chips(x.returned)];
      } else {
        line = [t("sm_gave", { from: name(x.seat), to: name(x.to), n: x.count })];
      }
      this.notes.append(h("div", { class: "sm-note exchange" }, line));
    }
    for (const x of s.escrow || []) {
      const line = x.gave
        ? [x.seat === this.you ? t("sm_you_gave", { to: name(x.to) }) : t("sm_gave_you", { from: name(x.seat) }), chips(x.gave)]
        : [t("sm_gave", { from: name(x.seat), to: name(x.to), n: x.count })];
      this.notes.append(h("div", { class: "sm-note exchange" }, line));
    }
    if (s.shown && s.shown.length) {
      this.notes.append(h("div", { class: "sm-note shown" }, t("sm_kitty_shown", { name: name(s.dealer) }), chips(s.shown)));
    }
    if (s.phase === "kitty" && s.discards && s.discards.length) {
      this.notes.append(h("div", { class: "sm-note" }, t("sm_you_discarded"), chips(s.discards)));
    }
    this.notes.hidden = !this.notes.firstChild;
  }

  // --- the felt: a phase's decision, or the trick -----------------------------------------------

  renderFelt(s, seats) {
    clear(this.felt);
    this.felt.dataset.phase = s.phase;
    if (s.face_up) {
      this.felt.append(h("div", { class: "sm-faceup" }, cardEl(s.face_up, DECK), h("span", { text: t("sm_face_up") })));
    }
    if (s.phase === "play") {
      this.renderTrick(s, seats);
      return;
    }
    const panel = h("div", { class: "sm-panel" });
    if (s.phase === "bid") this.bidPanel(s, panel);
    else if (s.phase === "trump") this.trumpPanel(s, panel);
    else if (s.phase === "call") this.callPanel(s, panel);
    else if (s.phase === "kitty") this.kittyPanel(s, panel);
    else if (s.phase === "exchange") this.exchangePanel(s, panel);
    else if (s.phase === "swap") this.swapPanel(s, panel);
    else if (s.phase === "over") this.overPanel(s, panel);
    if (s.phase !== "over" && this.log.length) {
      panel.append(h("ul", { class: "sm-log" }, this.log.map((x) => h("li", {}, x.text, x.cards ? chips(x.cards) : null))));
    }
    this.felt.append(panel);
  }

  waiting(panel, text) {
    panel.append(h("p", { class: "sm-wait" }, h("span", { class: "sm-dots", "aria-hidden": "true" }), h("span", { text })));
  }

  bidPanel(s, panel) {
    const b = s.bidding || { high: null, by: null, passed: [] };
    panel.append(h("h2", { text: t("sm_bid_title") }),
      h("p", { class: "sm-sub", text: b.high ? t("sm_high_bid", { n: b.high, name: this.ctx.name(b.by) }) : t("sm_no_bid") }));
    if (!this.isMyTurn()) {
      this.waiting(panel, t("sm_bidding", { name: this.ctx.name(s.turn) }));
      return;
    }
    const low = Math.max(MIN_BID, (b.high || 0) + 1);
    const bids = [];
    for (let n = low; n <= MAX_BID; n += 1) {
      bids.push(h("button", { class: "btn sm-bid-btn", type: "button", dataset: { bid: String(n) }, text: String(n),
        "aria-label": t("sm_bid_n", { n }), onclick: () => this.send({ type: "bid", tricks: n }) }));
    }
    panel.append(h("p", { class: "hint", text: t("sm_bid_explained") }),
      h("div", { class: "sm-bids" }, bids),
      h("button", { class: "btn sm-pass-btn", type: "button", text: t("sm_pass"), onclick: () => this.send({ type: "pass" }) }));
  }

  trumpPanel(s, panel) {
    if (!this.isMyTurn()) {
      panel.append(h("h2", { text: t("sm_trumps") }));
      this.waiting(panel, t("sm_naming", { name: this.ctx.name(s.turn) }));
      return;
    }
    panel.append(h("h2", { text: t("sm_name_trumps") }),
      h("div", { class: "sm-suits" }, SUITS.map((suit) => h("button", {
        class: `btn sm-suit-btn suit-${DECK}-${suit}`, type: "button", dataset: { suit },
        onclick: () => this.send({ type: "name_trump", suit }) },
      suitIcon(suit, DECK, 30), h("span", { text: t(`suit_${suit}`) })))));
  }

  callPanel(s, panel) {
    const dealer = s.turn;
    const used = (s.calls_used && s.calls_used[dealer]) || [];
    if (!this.isMyTurn()) {
      panel.append(h("h2", { text: t("sm_call") }));
      this.waiting(panel, t("sm_calling", { name: this.ctx.name(dealer) }));
      if (used.length) panel.append(h("p", { class: "sm-sub", text: t("sm_calls_used", { calls: used.map(callLabel).join(", ") }) }));
      return;
    }
    const left = new Set(s.calls_left || CALLS.filter((c) => !used.includes(c)));
    panel.append(h("h2", { text: t("sm_make_call") }), h("p", { class: "hint", text: t("sm_calls_explained") }),
      h("div", { class: "sm-calls" }, CALLS.map((call) => {
        const spent = !left.has(call);
        return h("button", { class: `btn sm-call-btn${SUITS.includes(call) ? ` suit-${DECK}-${call}` : ""}${spent ? " used" : ""}`,
          type: "button", disabled: spent, dataset: { call }, onclick: () => this.send({ type: "call", call }) },
        callIcon(call, 24), h("span", { text: callLabel(call) }),
        spent ? h("small", { text: t("sm_used") }) : null);
      })));
  }

  choosePanel(choice, panel, title, hint) {
    const n = choice.count;
    panel.append(h("h2", { text: title }),
      h("p", { class: "sm-count", text: t("sm_chosen", { k: this.chosen.size, n }) }),
      hint ? h("p", { class: "hint", text: hint }) : null);
  }

  kittyPanel(s, panel) {
    const choice = this.myChoice();
    if (choice && choice.type === "discard") {
      const taken = s.kitty && s.kitty.length;
      this.choosePanel(choice, panel, t("sm_discard_title", { n: choice.count }),
        taken ? t("sm_discard_after") : t("sm_discard_before"));
    } else {
      panel.append(h("h2", { text: t("sm_kitty") }));
      this.waiting(panel, t("sm_discarding", { name: this.ctx.name(s.turn) }));
    }
    if (s.kitty_count) {
      const backs = [];
      for (let i = 0; i < s.kitty_count; i += 1) backs.push(backEl());
      panel.append(h("div", { class: "sm-kitty", "aria-label": t("sm_kitty") }, backs));
    }
  }

  exchangePanel(s, panel) {
    const choice = this.myChoice();
    if (choice && choice.type === "give") {
      const to = this.ctx.name(choice.to);
      this.choosePanel(choice, panel, t("sm_give_title", { n: choice.count, name: to }), t("sm_give_hint", { name: to }));
    } else {
      panel.append(h("h2", { text: t("sm_exchange") }));
      const now = (s.pending_exchanges || [])[0];
      this.waiting(panel, now ? t("sm_gives", { from: this.ctx.name(now.seat), to: this.ctx.name(now.to), n: now.count })
        : t("sm_to_act", { name: this.ctx.name(s.turn) }));
    }
    const later = (s.pending_exchanges || []).slice(1);
    if (later.length) {
      panel.append(h("p", { class: "sm-sub", text: t("sm_then", { list: later.map((x) =>
        t("sm_gives", { from: this.ctx.name(x.seat), to: this.ctx.name(x.to), n: x.count })).join("; ") }) }));
    }
  }

  swapPanel(s, panel) {
    if (!this.isMyTurn()) {
      panel.append(h("h2", { text: t("sm_swap_title_other") }));
      this.waiting(panel, t("sm_swapping", { name: this.ctx.name(s.turn) }));
      return;
    }
    panel.append(h("h2", { text: t("sm_swap_title") }),
      h("div", { class: "sm-swap-cards" }, cardEl("2-diamonds", DECK), h("span", { class: "sm-arrow", text: "⇄" }),
        s.face_up ? cardEl(s.face_up, DECK) : null),
      h("div", { class: "row" },
        h("button", { class: "btn primary sm-swap-btn", type: "button", text: t("sm_swap"), onclick: () => this.send({ type: "swap" }) }),
        h("button", { class: "btn sm-keep-btn", type: "button", text: t("sm_keep"), onclick: () => this.send({ type: "decline_swap" }) })));
  }

  overPanel(s, panel) {
    const winners = s.winners || [];
    const me = this.you !== null && winners.includes(this.you);
    let text;
    if (me && winners.length === 1) text = t("you_won");
    else if (winners.length > 1) text = t("sm_co_winners", { names: winners.map((w) => this.ctx.name(w)).join(", ") });
    else text = t("sm_won_game", { name: this.ctx.name(winners[0]) });
    panel.classList.add("over");
    panel.append(h("div", { class: "sm-trophy", "aria-hidden": "true", text: "🏆" }), h("h2", { class: "sm-winner", text }));
    if (s.score_kind === "ledger" && winners.length === 1) {
      panel.append(h("p", { class: "sm-sub", text: t("sm_won_with", { n: s.tricks[winners[0]], hand: s.hand_no }) }));
    }
    panel.append(h("table", { class: "sm-final" },
      h("thead", {}, h("tr", {}, h("th", {}), h("th", { text: t("sm_col_tricks") }),
        h("th", { text: t(s.score_kind === "running" ? "sm_col_score" : "sm_col_stakes") }))),
      h("tbody", {}, [0, 1, 2].map((seat) => h("tr", { class: winners.includes(seat) ? "win" : "" },
        h("td", { text: this.ctx.name(seat) }), h("td", { text: `${s.tricks[seat]}/${s.targets[seat]}` }),
        h("td", { text: signed(s.totals[seat]) }))))));
  }

  renderTrick(s, seats) {
    const live = s.trick.length > 0;
    const showing = live ? s.trick : s.last_trick;
    const slots = { [seats.left]: "left", [seats.right]: "right", [seats.bottom]: "bottom" };
    const trick = h("div", { class: `trick${live ? "" : " done"}` });
    showing.forEach((play, i) => {
      const card = cardEl(play.card, DECK, { classes: `slot-${slots[play.seat]}` });
      card.append(h("span", { class: "order", text: String(i + 1) }));
      trick.append(card);
    });
    this.felt.append(trick);
    let caption = "";
    if (!live && s.last_trick.length) {
      caption = this.lastWinner !== null ? t("last_trick_won_by", { name: this.ctx.name(this.lastWinner) }) : t("last_trick");
    } else if (!live) {
      caption = t("leads", { name: this.ctx.name(s.turn) });
    }
    if (this.flashed && Date.now() < this.flashed.until) caption = this.flashed.text;
    this.felt.append(h("div", { class: "caption", text: caption }));
    if (live && s.last_trick.length) {
      this.felt.append(h("button", { class: "btn small last-btn", type: "button", "aria-expanded": String(this.showLast),
        onclick: () => { this.showLast = !this.showLast; this.render(); }, text: t("last_trick") }));
      if (this.showLast) {
        this.felt.append(h("div", { class: "last-trick" },
          h("div", { class: "label", text: this.lastWinner !== null
            ? t("last_trick_won_by", { name: this.ctx.name(this.lastWinner) }) : t("last_trick") }),
          h("div", { class: "row" }, s.last_trick.map((play) => h("div", { class: "lt" },
            cardEl(play.card, DECK), h("span", { text: this.ctx.name(play.seat) }))))));
      }
    }
  }

  // --- status, hand, actions --------------------------------------------------------------------

  statusText(s) {
    if (s.over) return "";
    if (!this.isMyTurn()) return t("sm_to_act", { name: this.ctx.name(s.turn) });
    const choice = s.choose;
    switch (s.phase) {
      case "bid": return t("sm_your_bid");
      case "trump": return t("sm_name_trumps");
      case "call": return t("sm_make_call");
      case "kitty": return t("sm_discard_title", { n: choice ? choice.count : 4 });
      case "exchange": return choice ? t("sm_give_title", { n: choice.count, name: this.ctx.name(choice.to) }) : t("your_turn");
      case "swap": return t("sm_swap_short");
      default: return t("your_turn");
    }
  }

  renderStatus(s) {
    let cls = "status";
    let text = this.statusText(s);
    if (s.over) {
      const winners = s.winners || [];
      text = this.you !== null && winners.includes(this.you) ? t("you_won")
        : t("winner_is", { name: winners.map((w) => this.ctx.name(w)).join(", ") });
      cls += " over";
    } else if (this.isMyTurn()) {
      cls += " mine";
    }
    this.status.className = cls;
    clear(this.status).append(h("span", { text }), this.clockEl = h("span", { class: "clock" }));
    this.renderClock();
  }

  renderClock() {
    if (!this.clockEl || !this.view) return;
    const table = this.view.table;
    if (!table.deadline || table.timer === "none" || this.state.over) {
      this.clockEl.textContent = "";
      return;
    }
    const left = table.deadline - Date.now() / 1000;
    this.clockEl.textContent = formatClock(left);
    this.clockEl.classList.toggle("low", left < 15);
  }

  freshCards(s) {
    const fresh = new Set();
    if (s.phase === "play" || s.phase === "over") return fresh;
    if (s.phase === "kitty") for (const c of s.kitty || []) fresh.add(c);
    for (const x of s.exchanges || []) {
      if (!x.gave) continue;
      const kept = x.seat === this.you ? x.returned.filter((c) => !x.gave.includes(c)) : x.gave.filter((c) => !x.returned.includes(c));
      for (const c of kept) fresh.add(c);
    }
    return fresh;
  }

  renderHand(s) {
    clear(this.hand);
    if (this.you === null) {
      this.hand.append(h("p", { class: "hint", text: t("watching") }));
      return;
    }
    const order = s.trump ? [s.trump, ...SUITS.filter((x) => x !== s.trump)] : SUITS;
    const cards = sortHand(s.hand || [], DECK, order);
    const myTurn = this.isMyTurn();
    const playing = s.phase === "play" && myTurn;
    const legal = new Set(s.legal || []);
    const choosing = Boolean(this.myChoice());
    const fresh = this.freshCards(s);
    this.hand.classList.toggle("choosing", choosing);
    this.hand.style.setProperty("--cols", String(Math.max(8, Math.ceil(cards.length / 2))));
    for (const card of cards) {
      const picked = choosing ? this.chosen.has(card) : card === this.selected;
      const classes = [picked ? "selected" : "", playing && !legal.has(card) ? "illegal" : "",
        fresh.has(card) ? "fresh" : "", s.trump && card.endsWith(`-${s.trump}`) ? "trump" : ""].join(" ");
      const el = cardEl(card, DECK, { classes, onTap: () => this.tap(card) });
      el.setAttribute("aria-pressed", String(picked));
      if (playing && !legal.has(card)) el.setAttribute("aria-disabled", "true");
      this.hand.append(el);
    }
  }

  renderActions(s) {
    clear(this.actions);
    if (s.over) {
      tg.mainButton(null);
      this.actions.append(h("button", { class: "btn primary sm-result-btn", type: "button", onclick: () => this.ctx.showResult(),
        text: t("show_result") }));
      return;
    }
    const choice = this.myChoice();
    if (choice) {
      const ready = this.chosen.size === choice.count;
      const label = t(choice.type === "discard" ? "sm_discard_btn" : "sm_give_btn", { n: choice.count });
      const native = tg.mainButton(ready ? label : null, () => this.confirm());
      if (!native) {
        this.actions.append(h("button", { class: "btn primary sm-confirm", type: "button", disabled: !ready,
          onclick: () => this.confirm(), text: ready ? label : t("sm_choose_more", { n: choice.count - this.chosen.size }) }));
      } else if (!ready) {
        this.actions.append(h("p", { class: "hint", text: t("sm_choose_more", { n: choice.count - this.chosen.size }) }));
      }
      return;
    }
    const ready = s.phase === "play" && this.selected && this.isMyTurn();
    const label = ready ? t("play_card", { card: cardName(this.selected, DECK) }) : null;
    const native = tg.mainButton(label, () => this.play(this.selected));
    if (ready && !native) {
      this.actions.append(h("button", { class: "btn primary play-btn", type: "button", onclick: () => this.play(this.selected),
        text: label }));
    } else if (this.you !== null && !ready) {
      let hint = t("wait_turn");
      if (this.isMyTurn()) hint = s.phase === "play" ? t("tap_to_select") : t("sm_choose_above");
      else if (s.phase !== "play") hint = t("sm_wait");
      this.actions.append(h("p", { class: "hint", text: hint }));
    }
  }

  // --- input ------------------------------------------------------------------------------------

  tap(card) {
    if (this.ctx.isBusy()) return;
    const s = this.state;
    const choice = this.myChoice();
    if (choice) {
      if (this.chosen.has(card)) this.chosen.delete(card);
      else if (this.chosen.size >= choice.count) {
        toast(t("sm_too_many", { n: choice.count }));
        return;
      } else this.chosen.add(card);
      tg.haptic("select");
      this.render();
      return;
    }
    if (s.phase !== "play") {
      if (this.you !== null && !s.over) toast(this.isMyTurn() ? t("sm_choose_above") : t("sm_wait"));
      return;
    }
    const mine = this.isMyTurn();
    if (mine && !(s.legal || []).includes(card)) {
      tg.haptic("error");
      toast(t("sm_must_follow"));
      return;
    }
    if (this.selected === card) {
      if (mine) this.play(card);
      else toast(t("wait_turn"));
      return;
    }
    this.selected = card;
    tg.haptic("select");
    this.render();
  }

  async send(action) {
    if (!this.isMyTurn() || this.ctx.isBusy()) return null;
    this.el.classList.add("busy");
    const result = await this.ctx.act(action);
    this.el.classList.remove("busy");
    if (this.view) this.render();
    return result;
  }

  async confirm() {
    const choice = this.myChoice();
    if (!choice || this.chosen.size !== choice.count) return;
    const result = await this.send({ type: choice.type, cards: [...this.chosen] });
    if (result && result.ok) this.chosen.clear();
  }

  async play(card) {
    if (!card || !this.isMyTurn() || this.ctx.isBusy()) return;
    this.hand.classList.add("busy");
    const result = await this.ctx.act({ type: "play", card });
    this.hand.classList.remove("busy");
    if (result.ok && this.selected === card) this.selected = null;
    if (this.view) this.render();
  }
}
