// The Coins table for a phone in portrait: the opponents seated left and right of the trick, your 16 cards fanned
// below; tap a card twice, drag it onto the felt, or with one-tap play tap it once.

import { h, clear, toast } from "../../shell/dom.js";
import { TableRenderer } from "../../shell/renderer.js";
import { TrickPacer, appendTrickExtras, trickEl } from "../../shell/trick_felt.js";
import { fanToFit } from "../../shell/fan.js";
import { dragToPlay } from "../../shell/drag.js";
import { isOneTap } from "../../shell/one_tap.js";
import { t, tn } from "../../shell/i18n.js";
import { cardEl, backEl, cardName, sortHand, suitIcon, suitName } from "../../shell/cards.js";
import * as tg from "../../shell/tg.js";
import { handRow, scoreSheetButton, showScoreSheet, signed } from "../../shell/scoresheet.js";
import { sheet } from "./sheet.js";

const DECK = "spanish";

export function createRenderer(container, ctx) {
  return new CoinsTable(container, ctx);
}

class CoinsTable extends TableRenderer {
  constructor(container, ctx) {
    super(ctx);
    this.selected = null;
    this.showLast = false;
    this.pacer = new TrickPacer(this);
    this.el = h("div", { class: "coins-table" },
      this.scorebar = h("div", { class: "scorebar" }),
      this.cycle = h("div", { class: "cycle", role: "note" }),
      this.ring = h("div", { class: "opps ring seated" },
        this.left = h("div", { class: "player seat-left" }),
        this.felt = h("div", { class: "felt" }),
        this.right = h("div", { class: "player seat-right" })),
      this.status = h("div", { class: "status", role: "status", "aria-live": "polite" }),
      this.me = h("div", { class: "me" }),
      this.hand = h("div", { class: "hand fan draggable", role: "group", "aria-label": t("your_hand") }),
      this.actions = h("div", { class: "actions" }),
      h("footer", { class: "credit", text: t("coins_credit") }));
    container.append(this.el);
    this.undrag = dragToPlay(this.hand, () => this.felt, {
      canDrag: (card) => this.isMyTurn() && (this.state.legal || []).includes(card),
      drop: (card) => this.play(card),
    });
    // the hand is laid out for the room left: a phone turned or a resized window lays it out again
    this.onResize = () => { if (this.view) this.render(); };
    window.addEventListener("resize", this.onResize);
  }

  isOver() {
    return this.state.phase !== "play";
  }

  destroy() {
    window.removeEventListener("resize", this.onResize);
    this.undrag();
    this.pacer.destroy();
    super.destroy();
  }

  // Frames wait while a finished trick is on show (trick_felt.js).
  update(view, events, kind) {
    this.pacer.push(view, events, kind);
  }

  settling(done) {
    return this.pacer.settling(done);
  }

  isMyTurn() {
    return this.you !== null && this.state.phase === "play" && this.state.to_act.includes(this.you);
  }

  apply(view, events) {
    this.view = view;
    for (const e of events || []) this.onEvent(e);
    const hand = this.state.hand || [];
    if (this.selected && !hand.includes(this.selected)) this.selected = null;
    const mine = this.isMyTurn();
    this.noteTurn(mine);
    this.render();
  }

  refused() {
    this.render();
  }

  onEvent(e) {
    const s = this.state;
    if (e.type === "dealt" && e.seat === this.you) {
      this.flash(t("new_hand", { n: e.hand_no, name: this.ctx.name(e.dealer) }));
    } else if (e.type === "played" && s.trick.length === 1) {
      this.showLast = false;
    }
  }

  // The hand's end on the felt: what each player took in it (the view's row of that hand).
  handEnd(e) {
    const row = handRow(this.state, e.hand_no);
    if (!row || !row.done) return null;
    return { title: t("hand_result", { n: e.hand_no }), rows: [0, 1, 2].map((seat) => {
      const change = row.points[seat];
      return { name: String(this.ctx.name(seat)), change, text: signed(change) };
    }) };
  }

  // A trick's points, rising to its winner's score.
  tallyText(e) {
    return e.points ? signed(e.points) : null;
  }

  tallyEl(seat) {
    return this.el.querySelector(`.player[data-seat="${seat}"] .points`);
  }

  flash(text) {
    this.flashed = { text, until: Date.now() + 2500 };
  }

  seatsAround() {
    const bottom = this.you === null ? 0 : this.you;
    return { bottom, left: (bottom + 1) % 3, right: (bottom + 2) % 3 };
  }

  render() {
    const s = this.state;
    const seats = this.seatsAround();
    this.renderScorebar(s);
    this.renderCycle(s);
    this.left = this.seat(this.left, this.playerPanel(seats.left, "left"));
    this.right = this.seat(this.right, this.playerPanel(seats.right, "right"));
    this.renderFelt(s, seats);
    this.renderStatus(s);
    clear(this.me).append(this.playerPanel(seats.bottom, "bottom"));
    this.renderActions(s);
    this.renderHand(s); // last: the hand takes the room the rest leaves
  }

  // An opponent's panel in its place beside the felt.
  seat(old, panel) {
    panel.classList.add(old.classList.contains("seat-left") ? "seat-left" : "seat-right");
    old.replaceWith(panel);
    return panel;
  }

  renderScorebar(s) {
    clear(this.scorebar).append(
      h("span", { class: "hand-no", text: t("hand_n", { n: s.hand_no }) }),
      h("span", { class: "trick-no", text: t("trick_n", { n: Math.min(s.trick_no, 16), of: 16 }) }),
      h("span", { class: "target", text: t("first_to", { n: s.target_score }) }),
      scoreSheetButton(() => this.showScores()));
  }

  showScores() {
    return showScoreSheet(sheet, this.state, (seat) => this.ctx.name(seat));
  }

  renderCycle(s) {
    const cycle = [...s.suit_cycle, s.suit_cycle[0]];
    clear(this.cycle);
    this.cycle.setAttribute("aria-label", t("cycle_explained"));
    cycle.forEach((suit, i) => {
      if (i) this.cycle.append(h("span", { class: "gt", "aria-hidden": "true", text: ">" }));
      this.cycle.append(h("span", { class: "cyc" }, suitIcon(suit, DECK, 16), h("span", { text: suitName(suit, DECK) })));
    });
  }

  playerPanel(seat, where) {
    const s = this.state;
    const info = this.ctx.seatInfo(seat) || {};
    const score = s.scores[seat];
    const pct = Math.min(100, Math.round((100 * score) / Math.max(1, s.target_score)));
    const turn = s.phase === "play" && s.to_act.includes(seat);
    const winner = s.phase === "over" && s.winner === seat;
    const name = this.ctx.name(seat);
    const aiTag = t("ai");
    return h("div", { class: `player ${where}${turn ? " turn" : ""}${winner ? " winner" : ""}`, dataset: { seat: String(seat) } },
      h("div", { class: "pline" },
        h("span", { class: "pname", dir: "auto", text: name }),
        (info.is_ai || info.autopilot) && !name.includes(aiTag) ? h("span", { class: "badge ai", text: aiTag }) : null,
        h("span", { class: "points", text: t("score_of", { n: score, target: s.target_score }) })),
      h("div", { class: "pline small" },
        where === "bottom" ? null : h("span", { class: "count" }, backEl("mini"),
          h("span", { text: tn("cards_n", s.hand_counts[seat]) })),
        h("span", { class: "won", text: t("won_n", { n: s.won_cards[seat] }) }),
        s.dealer === seat ? h("span", { class: "badge dealer", title: t("dealer"), text: t("dealer") }) : null),
      h("div", { class: "bar", role: "progressbar", "aria-label": name, "aria-valuemin": "0",
        "aria-valuemax": String(s.target_score), "aria-valuenow": String(score),
        "aria-valuetext": t("score_of", { n: score, target: s.target_score }) }, h("span", { style: `width:${pct}%` })));
  }

  renderFelt(s, seats) {
    clear(this.felt);
    const slots = { [seats.left]: "left", [seats.right]: "right", [seats.bottom]: "bottom" };
    const { trick, live, done } = trickEl(s, this.pacer, slots, DECK);
    this.felt.append(trick);
    appendTrickExtras(this, this.felt, s, { live, done, deck: DECK, leading: s.phase === "play" });
  }

  renderStatus(s) {
    if (s.phase !== "over" && this.isMyTurn() && !this.pacer.landed()) return; // "Your turn" once the cards have landed
    let text;
    let cls = "status";
    if (s.phase === "over") {
      text = s.winner === this.you ? t("you_won") : t("winner_is", { name: this.ctx.name(s.winner) });
      cls += " over";
    } else if (this.isMyTurn()) {
      text = t("your_turn");
      cls += " mine";
    } else {
      text = t("to_play", { name: this.ctx.name(s.turn) });
    }
    this.status.className = cls;
    clear(this.status).append(h("span", { text }), this.clockEl = h("span", { class: "clock" }));
    this.renderClock();
  }

  renderHand(s) {
    clear(this.hand);
    if (this.you === null) {
      this.hand.append(h("p", { class: "hint", text: t("watching") }));
      return;
    }
    const cards = sortHand(s.hand || [], DECK, s.suit_cycle);
    const legal = new Set(s.legal || []);
    const myTurn = this.isMyTurn();
    const els = cards.map((card) => {
      const classes = [card === this.selected ? "selected" : "", myTurn && !legal.has(card) ? "illegal" : ""].join(" ");
      const el = cardEl(card, DECK, { classes, onTap: () => this.tap(card) });
      el.setAttribute("aria-pressed", String(card === this.selected));
      return el;
    });
    fanToFit(this.hand, els);
  }

  renderActions(s) {
    clear(this.actions);
    if (s.phase === "over") {
      tg.mainButton(null);
      this.actions.append(h("button", { class: "btn primary", type: "button", onclick: () => this.ctx.showResult(),
        text: t("show_result") }));
      return;
    }
    const ready = this.selected && this.isMyTurn();
    const label = ready ? t("play_card", { card: cardName(this.selected, DECK) }) : null;
    const native = tg.mainButton(label, () => this.play(this.selected));
    if (ready && !native) {
      this.actions.append(h("button", { class: "btn primary play-btn", type: "button", onclick: () => this.play(this.selected),
        text: label }));
    } else if (this.you !== null && !ready) {
      this.actions.append(h("p", { class: "hint", text: this.isMyTurn() ? t(isOneTap() ? "tap_to_play" : "tap_to_select") : t("wait_turn") }));
    }
  }

  tap(card) {
    if (this.ctx.isBusy()) return;
    if (isOneTap() && this.isMyTurn() && (this.state.legal || []).includes(card)) {
      this.play(card);
      return;
    }
    if (this.selected === card) {
      if (this.isMyTurn()) this.play(card);
      else toast(t("wait_turn"));
      return;
    }
    this.selected = card;
    tg.haptic("select");
    this.render();
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
