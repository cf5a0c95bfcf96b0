// The Sergeant Major table for a phone in portrait: the bid, trumps or a call, the kitty, the exchange,
// the 2 of Diamonds swap and the tricks, with every seat's position, target, tricks and score. In the play the
// opponents sit left and right of the trick; a card is played by two taps, by dragging it onto the felt, or with
// one-tap play by one tap.

import { h, clear, toast } from "../../shell/dom.js";
import { TableRenderer } from "../../shell/renderer.js";
import { TrickPacer, appendHandEnd, appendTrickExtras, trickEl } from "../../shell/trick_felt.js";
import { fanToFit } from "../../shell/fan.js";
import { dragToPlay } from "../../shell/drag.js";
import { isOneTap } from "../../shell/one_tap.js";
import { t, tn, tNames } from "../../shell/i18n.js";
import { cardEl, cardName, sortHand } from "../../shell/cards.js";
import * as tg from "../../shell/tg.js";
import { showScoreSheet } from "../../shell/scoresheet.js";
import { sheet } from "./sheet.js";
import { renderScorebar } from "./scorebar.js";
import { DECK, SUITS, decisionPanel, eventLine, playerPanel, renderNotes, signed as signedScore } from "./parts.js";

const LOG_SIZE = 3;


export function createRenderer(container, ctx) {
  return new SergeantMajorTable(container, ctx);
}

class SergeantMajorTable extends TableRenderer {
  constructor(container, ctx) {
    super(ctx);
    this.selected = null; // play: the card tapped once
    this.chosen = new Set(); // discard or give: the cards picked so far
    this.choiceKey = "";
    this.lastWinner = null;
    this.showLast = false;
    this.pacer = new TrickPacer(this);
    this.flashed = null;
    this.log = [];
    this.el = h("div", { class: "sm-table" },
      this.scorebar = h("div", { class: "scorebar sm-scorebar" }),
      this.notes = h("div", { class: "sm-notes", "aria-live": "polite", dataset: { keepClear: "" } }),
      this.ring = h("div", { class: "opps ring" },
        this.left = h("div", { class: "player seat-left" }),
        this.felt = h("div", { class: "felt sm-felt" }),
        this.right = h("div", { class: "player seat-right" })),
      this.status = h("div", { class: "status", role: "status", "aria-live": "polite" }),
      this.me = h("div", { class: "me sm-me" }),
      this.hand = h("div", { class: "hand fan draggable", role: "group", "aria-label": t("your_hand") }),
      this.actions = h("div", { class: "actions" }));
    container.append(this.el);
    this.undrag = dragToPlay(this.hand, () => this.felt, {
      canDrag: (card) => this.state.phase === "play" && this.isMyTurn() && (this.state.legal || []).includes(card),
      drop: (card) => this.play(card),
    });
    // the hand is laid out for the room left: a phone turned or a resized window lays it out again
    this.onResize = () => { if (this.view) this.render(); };
    window.addEventListener("resize", this.onResize);
  }

  isOver() {
    return Boolean(this.state.over);
  }

  destroy() {
    window.removeEventListener("resize", this.onResize);
    this.undrag();
    this.pacer.destroy();
    super.destroy();
  }

  // The hand's end on the felt: each player's tricks against their target and what that won or lost.
  handEnd(e) {
    return { title: t("sm_hand_result", { n: e.hand_no }), rows: [0, 1, 2].map((seat) => ({
      name: String(this.ctx.name(seat)), change: e.results[seat],
      text: `${e.tricks[seat]}/${e.targets[seat]}  ${signedScore(e.results[seat])}` })) };
  }

  // A trick taken: one more to its winner's count.
  tallyText() {
    return "+1";
  }

  tallyEl(seat) {
    return this.el.querySelector(`.player[data-seat="${seat}"] .sm-tricks`);
  }

  // Frames wait while a finished trick is on show (trick_felt.js).
  update(view, events, kind) {
    this.pacer.push(view, events, kind);
  }

  settling(done) {
    return this.pacer.settling(done);
  }

  isMyTurn() {
    const s = this.state;
    return this.you !== null && !s.over && s.turn === this.you;
  }

  myChoice() {
    return this.isMyTurn() ? this.state.choose || null : null;
  }

  apply(view, events) {
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
    this.noteTurn(mine);
    this.render();
  }

  refused() {
    this.render();
  }

  onEvent(e, before) {
    if (e.type === "dealt" && e.seat === (this.you ?? 0)) {
      this.log = [];
      this.lastWinner = null;
      this.showLast = false;
    } else if (e.type === "trick_won") {
      this.lastWinner = e.seat;
    } else if (e.type === "play_started" || (e.type === "played" && before && before.trick.length === 0)) {
      this.showLast = false;
    }
    const line = eventLine(e, this.you, (seat) => this.ctx.name(seat));
    if (!line) return;
    if (!line.quiet) {
      this.log.push(line);
      if (this.log.length > LOG_SIZE) this.log.shift();
    }
    // the caption is text: a line that shows cards ("You discarded:") names them there
    const cards = (line.cards || []).map((card) => cardName(card, DECK)).join(", ");
    this.flashed = { text: cards ? `${line.text} ${cards}` : line.text, until: Date.now() + 2500 };
  }


  seatsAround() {
    const bottom = this.you === null ? 0 : this.you;
    return { bottom, left: (bottom + 1) % 3, right: (bottom + 2) % 3 };
  }

  render() {
    const s = this.state;
    const seats = this.seatsAround();
    this.el.dataset.phase = s.phase;
    renderScorebar(this.scorebar, s, () => this.showScores());
    this.ring.classList.toggle("seated", s.phase === "play");
    this.left = this.seat(this.left, playerPanel(this, seats.left, "left"));
    this.right = this.seat(this.right, playerPanel(this, seats.right, "right"));
    renderNotes(this, s);
    this.renderFelt(s, seats);
    this.renderStatus(s);
    clear(this.me).append(playerPanel(this, seats.bottom, "bottom"));
    this.renderActions(s);
    this.renderHand(s); // last: the hand takes the room the rest leaves
  }

  // An opponent's panel in its place beside the felt.
  seat(old, panel) {
    panel.classList.add(old.classList.contains("seat-left") ? "seat-left" : "seat-right");
    old.replaceWith(panel);
    return panel;
  }

  // --- the bar at the top (scorebar.js) and the score sheet -------------------------------------

  showScores() {
    return showScoreSheet(sheet, this.state, (seat) => this.ctx.name(seat));
  }

  // The game-over sheet's unit: stakes won or lost, or the running score; never points (signed as the panels
  // sign them, "−16").
  scoreText(seat, score) {
    return t(this.state.score_kind === "running" ? "sm_total_running" : "sm_total_ledger", { n: signedScore(score) });
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
    // the hand just over shows alone a moment, then the decision's words, never one over the other
    if (appendHandEnd(this.pacer, this.felt)) return;
    const panel = this.felt.appendChild(decisionPanel(this, s));
    panel.dataset.keepClear = ""; // words to read: motion keeps off them (shell/motion.js)
  }

  renderTrick(s, seats) {
    const slots = { [seats.left]: "left", [seats.right]: "right", [seats.bottom]: "bottom" };
    const { trick, live, done } = trickEl(s, this.pacer, slots, DECK);
    this.felt.append(trick);
    appendTrickExtras(this, this.felt, s, { live, done, deck: DECK, leading: true });
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
      case "kitty": return tn("sm_discard_title", choice ? choice.count : 4);
      case "exchange": return choice ? tn("sm_give_title", choice.count, { name: this.ctx.name(choice.to) }) : t("your_turn");
      case "swap": return t("sm_swap_short");
      default: return t("your_turn");
    }
  }

  renderStatus(s) {
    if (!s.over && this.isMyTurn() && !this.pacer.landed()) return; // "Your turn" once the cards have landed
    let cls = "status";
    let text = this.statusText(s);
    if (s.over) {
      const winners = s.winners || [];
      if (winners.length > 1) text = tNames("sm_co_winners", winners.map((w) => this.ctx.name(w)));
      else text = winners[0] === this.you ? t("you_won") : t("winner_is", { name: this.ctx.name(winners[0]) });
      cls += " over";
    } else if (this.isMyTurn()) {
      cls += " mine";
    }
    this.status.className = cls;
    clear(this.status).append(h("span", { text }), this.clockEl = h("span", { class: "clock" }));
    this.renderClock();
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
    const els = [];
    for (const card of cards) {
      const picked = choosing ? this.chosen.has(card) : card === this.selected;
      const classes = [picked ? "selected" : "", playing && !legal.has(card) ? "illegal" : "",
        fresh.has(card) ? "fresh" : "", s.trump && card.endsWith(`-${s.trump}`) ? "trump" : ""].join(" ");
      const el = cardEl(card, DECK, { classes, onTap: () => this.tap(card) });
      el.setAttribute("aria-pressed", String(picked));
      if (playing && !legal.has(card)) el.setAttribute("aria-disabled", "true");
      els.push(el);
    }
    fanToFit(this.hand, els);
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
      const label = tn(choice.type === "discard" ? "sm_discard_btn" : "sm_give_btn", choice.count);
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
      if (this.isMyTurn()) hint = s.phase === "play" ? t(isOneTap() ? "tap_to_play" : "tap_to_select") : t("sm_choose_above");
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
    if (mine && isOneTap()) {
      this.play(card);
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
