// The Kings in the Corner table for a phone in portrait: opponents on top, the plus of side piles and the four
// corners around the stock, your hand below. Tap a card, then a glowing pile (or drag the card onto the pile); tap a
// pile, then where it goes.
// Other players' moves are replayed one by one (a card flies to its pile, the pile lights up) so they can be followed.

import { h, clear, toast } from "../../shell/dom.js";
import { TableRenderer } from "../../shell/renderer.js";
import { t, tn } from "../../shell/i18n.js";
import * as tg from "../../shell/tg.js";
import { cue } from "../../shell/sound.js";
import { scoreSheetButton, showScoreSheet } from "../../shell/scoresheet.js";
import { sheet } from "./sheet.js";
import { hintLine, noticeOf, statusLine } from "./words.js";
import { DECK, boardEl, cardEl, cardName, isCorner, legalMoves, resultEl, scoreText, seatEl, seatFigure, sortKings,
  splitTurns, turnLine } from "./parts.js";
import { fanOut } from "../../shell/fan.js";
import { dragToPlay } from "../../shell/drag.js";
import { BOARD_EVENTS, applyEvent, flyDraw, flyMove, reducedMotion, sleep, snapshot, spaceOf } from "./board_events.js";


export function createRenderer(container, ctx) {
  return new KingsTable(container, ctx);
}

class KingsTable extends TableRenderer {
  constructor(container, ctx) {
    super(ctx);
    this.sel = null; // {card} from the hand or {space} of a pile to move
    this.shown = null;
    this.log = [];
    this.queue = [];
    this.running = false;
    this.skip = false;
    this.waiters = [];
    this.flashSpace = null;
    this.notice = null;
    this.drawn = new Set();
    this.myDraws = new Map();
    this.el = h("div", { class: "kc-table", dataset: { turn: "wait" } },
      this.scorebar = h("div", { class: "scorebar kc-scorebar" }),
      this.opps = h("div", { class: "kc-opps" }),
      this.felt = h("div", { class: "felt kc-felt" }),
      this.logEl = h("div", { class: "kc-log", "aria-live": "polite" }),
      this.status = h("div", { class: "status", role: "status", "aria-live": "polite" }),
      this.hand = h("div", { class: "hand kc-hand draggable", role: "group", "aria-label": t("your_hand") }),
      this.actions = h("div", { class: "actions kc-actions" }));
    container.append(this.el);
    tg.mainButton(null);
    this.undrag = dragToPlay(this.hand, () => this.felt, {
      canDrag: (card) => this.isMyTurn() && this.moves().byCard.has(card),
      drop: (card, x, y) => this.dropOnPile(card, x, y),
    });
    // the fan is laid out for the hand's width: a phone turned or a resized window lays it out again
    this.onResize = () => { if (!this.running) this.render(); };
    window.addEventListener("resize", this.onResize);
  }

  destroy() {
    window.removeEventListener("resize", this.onResize);
    this.undrag();
    this.queue = [];
    this.skip = true;
    super.destroy();
  }

  isOver() {
    return this.state.phase === "over";
  }

  isMyTurn() {
    return this.you !== null && !this.isOver() && !this.running && this.state.turn === this.you;
  }

  // The shell asks before its game-over sheet: true (and ``done`` later) while the last moves still play out.
  settling(done) {
    if (!this.running && !this.queue.length) return false;
    this.waiters.push(done);
    return true;
  }

  scoreText(seat, score) {
    return scoreText(this.state.options.scoring, score);
  }

  update(view, events, kind) {
    const fresh = !this.view || kind === "welcome" || !this.shown;
    this.view = view;
    const s = this.state;
    if (fresh) {
      this.queue = [];
      this.skip = true;
    } else {
      this.queue.push(...(events || []));
    }
    for (const e of events || []) {
      if (e.type === "drew" && e.seat === this.you && e.cards) {
        this.drawn = new Set(e.cards);
        this.myDraws.set(e.stock, e.cards); // the stock left after a draw names it among the recent events
      }
      if (e.type === "dealt" && e.seat === this.you) {
        this.drawn = new Set();
        this.myDraws.clear();
      }
    }
    if (s.phase === "over") this.drawn = new Set();
    if (this.sel && this.sel.card && !(s.hand || []).includes(this.sel.card)) this.sel = null;
    if (s.must_play) this.sel = { card: s.must_play };
    this.pump();
  }

  refused() {
    this.sel = this.state.must_play ? { card: this.state.must_play } : null;
    this.render();
  }

  // Replay the queued events one by one, then show the server's view as it is.
  async pump() {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length) await this.step(this.queue.shift());
    } finally {
      this.running = false;
    }
    this.skip = false;
    this.flashSpace = null;
    this.shown = snapshot(this.state);
    this.log = [...(this.state.recent || [])];
    const mine = this.isMyTurn();
    this.noteTurn(mine);
    this.render();
    if (this.ctx.shown) this.ctx.shown(this.view, []);
    for (const done of this.waiters.splice(0)) done();
  }

  idle() {
    return this.running ? new Promise((resolve) => this.waiters.push(resolve)) : Promise.resolve();
  }

  // A tap while others' moves are replayed: finish the replay at once, then handle the tap.
  async catchUp() {
    if (!this.running && !this.queue.length) return;
    this.skip = true;
    await this.idle();
  }

  async step(e) {
    const animate = !this.skip && !document.hidden && typeof e.seat === "number" && e.seat !== this.you;
    if (animate && BOARD_EVENTS.has(e.type) && !reducedMotion()) await flyMove(e, this.felt, this.opps);
    if (animate && e.type === "drew" && !reducedMotion()) await flyDraw(e, this.felt, this.opps);
    if (!this.shown) this.shown = snapshot(this.state);
    applyEvent(this.shown, e);
    this.log.push(e);
    this.noteEvent(e);
    this.flashSpace = BOARD_EVENTS.has(e.type) ? spaceOf(e) : null;
    if (this.skip) return;
    // with sound on: a blip for each card or pile put down, a brighter chime for a corner you complete
    if (e.type === "corner_collected" && e.seat === this.you) cue("trick");
    else if (BOARD_EVENTS.has(e.type)) cue("card");
    this.render();
    if (animate && BOARD_EVENTS.has(e.type)) await sleep(reducedMotion() ? 500 : 330);
    else if (animate && e.type === "turn_ended") await sleep(200);
  }

  noteEvent(e) {
    const notice = noticeOf(e, this.you, (seat) => this.ctx.name(seat));
    if (notice !== undefined) this.notice = notice;
  }

  // Legal moves by what is tapped first: a card (to spaces) or a pile (to spaces), and end_turn.
  moves() {
    return legalMoves(this.isMyTurn() ? this.state.legal || [] : []);
  }

  targets(moves) {
    if (!this.sel) return new Map();
    return (this.sel.card ? moves.byCard.get(this.sel.card) : moves.byPile.get(this.sel.space)) || new Map();
  }

  async tapCard(card) {
    await this.catchUp();
    const s = this.state;
    if (s.must_play && card !== s.must_play) {
      toast(t("kc_must_play", { card: cardName(s.must_play, DECK) }));
      return;
    }
    if (this.sel && this.sel.card === card) {
      const targets = this.targets(this.moves());
      if (targets.size === 1) { this.send([...targets.values()][0]); return; }
      if (!s.must_play) this.sel = null;
    } else {
      this.sel = { card };
      tg.haptic("select");
    }
    this.render();
  }

  // A card dragged onto the board: as if it was tapped, then the pile it was let go over.
  async dropOnPile(card, x, y) {
    const pile = document.elementsFromPoint(x, y).map((el) => el.closest(".kc-pile")).find(Boolean);
    if (!pile) return;
    this.sel = { card };
    await this.tapPile(pile.dataset.space);
  }

  async tapPile(space) {
    await this.catchUp();
    if (this.isOver()) return;
    if (!this.isMyTurn()) { toast(t("kc_wait", { name: this.ctx.name(this.state.turn) })); return; }
    const moves = this.moves();
    const action = this.targets(moves).get(space);
    if (action) { this.send(action); return; }
    if (this.sel && this.sel.space === space) { this.sel = null; this.render(); return; }
    if (moves.byPile.has(space) && !this.state.must_play) {
      this.sel = { space };
      tg.haptic("select");
      this.render();
      return;
    }
    const piles = this.shown.piles;
    if (this.sel && this.sel.card) {
      // Not a place for this card: send it anyway, so the refusal says why in the rules' own words.
      const card = this.sel.card;
      if (piles[space].length) this.send({ type: "build", card, space });
      else if (isCorner(space)) this.send({ type: "place_king", card, corner: space });
      else this.send({ type: "fill_side", card, side: space });
    } else if (this.sel && this.sel.space) {
      const src = this.sel.space;
      if (isCorner(space) && !piles[space].length) this.send({ type: "move_king_pile", side: src, corner: space });
      else this.send({ type: "move_pile", src, dst: space });
    } else {
      toast(piles[space].length ? t("kc_pile_stuck") : t("kc_pick_card"));
    }
  }

  async send(action) {
    if (this.ctx.isBusy()) return;
    this.el.classList.add("busy");
    const result = await this.ctx.act(action);
    this.el.classList.remove("busy");
    if (result.ok) this.sel = this.state.must_play ? { card: this.state.must_play } : null;
    if (action.type === "end_turn" && result.ok) this.drawn = new Set();
    this.render();
  }

  render() {
    if (!this.view || !this.shown) return;
    const s = this.state;
    const moves = this.moves();
    this.el.dataset.turn = this.isOver() && !this.running ? "over" : this.running ? "wait" : this.isMyTurn() ? "mine" : "other";
    this.el.dataset.animating = this.running ? "1" : "0";
    this.el.classList.toggle("spectator", this.you === null);
    this.renderScorebar(s);
    this.renderSeats(s);
    this.renderBoard(s, moves);
    this.renderLog();
    this.renderStatus(s, moves);
    this.renderHand(s, moves);
    this.renderActions(s, moves);
  }

  renderScorebar(s) {
    const scoring = s.options.scoring;
    clear(this.scorebar).append(...[
      h("span", { class: "kc-rule", text: scoring === "penalty"
        ? t("kc_scoring_penalty", { n: s.options.penalty_limit }) : t(`kc_scoring_${scoring}`) }),
      scoring === "penalty" ? h("span", { class: "kc-hand-no", text: t("hand_n", { n: s.hand_no }) }) : null,
      this.you !== null ? h("span", { class: "kc-mine", text: tn("kc_you_hold", (s.hand || []).length) }) : null,
      scoreSheetButton(() => this.showScores()),
    ].filter(Boolean));
  }

  showScores() {
    return showScoreSheet(sheet, this.state, (seat) => this.ctx.name(seat));
  }

  renderSeats(s) {
    const n = s.players;
    const order = [];
    for (let i = this.you === null ? 0 : 1; i < n; i += 1) order.push(((this.you || 0) + i) % n);
    const over = this.isOver() && !this.running;
    this.opps.dataset.n = String(order.length);
    clear(this.opps).append(...order.map((seat) => seatEl(seat, {
      name: this.ctx.name(seat), info: this.ctx.seatInfo(seat), count: this.shown.counts[seat],
      turn: !over && this.shown.turn === seat, winner: over && s.winners.includes(seat), figure: seatFigure(s, seat),
    })));
  }

  renderBoard(s, moves) {
    const targets = this.targets(moves);
    const piles = this.shown.piles;
    const marksOf = (space) => {
      const pile = piles[space] || [];
      return {
        target: targets.has(space),
        source: Boolean(this.sel && this.sel.space === space),
        movable: !this.sel && moves.byPile.has(space),
        flash: this.flashSpace === space,
      };
    };
    this.felt.classList.toggle("choosing", targets.size > 0);
    clear(this.felt).append(boardEl(piles, this.shown.stock, marksOf, (space) => this.tapPile(space)));
  }

  renderLog() {
    const mine = (e) => (e.type === "drew" && e.seat === this.you && !e.cards && this.myDraws.has(e.stock)
      ? { ...e, cards: this.myDraws.get(e.stock) } : e);
    const turns = splitTurns(this.log.map(mine)).slice(-2);
    const lines = turns.map((turn, i) => turnLine(turn.seat, turn.events, this.ctx.name(turn.seat),
      i === turns.length - 1 && !turn.closed)).filter(Boolean);
    clear(this.logEl).append(...lines);
    // a line too long for the screen keeps its newest moves in view
    for (const evs of this.logEl.querySelectorAll(".kc-evs")) evs.classList.toggle("overflow", evs.scrollWidth > evs.clientWidth);
    if (this.notice) this.logEl.append(h("div", { class: "kc-notice", text: this.notice }));
  }

  renderStatus(s, moves) {
    const mine = this.isMyTurn();
    const over = this.isOver();
    this.status.className = `status${mine ? " mine" : ""}${over && !this.running ? " over" : ""}`;
    const name = (seat) => this.ctx.name(seat);
    const hint = mine && !over ? hintLine(s, moves, this.sel, this.targets(moves).size > 0) : "";
    const turn = this.running ? this.shown.turn : s.turn; // while moves replay, the seat on show
    const main = statusLine(s, { you: this.you, mine: mine && !this.running, over, turn }, name);
    this.clockEl = h("span", { class: "clock" });
    clear(this.status).append(h("span", { class: "kc-status-main", text: main }),
      ...(hint ? [h("span", { class: "kc-hint", text: hint })] : []), this.clockEl);
    this.renderClock();
  }

  renderHand(s, moves) {
    clear(this.hand);
    if (this.you === null) {
      this.hand.append(h("p", { class: "hint", text: t("watching") }));
      return;
    }
    const cards = sortKings(s.hand || []);
    const mine = this.isMyTurn();
    const els = [];
    for (const card of cards) {
      const selected = Boolean(this.sel && this.sel.card === card);
      const playable = moves.byCard.has(card);
      const classes = [selected ? "selected" : "", mine && playable ? "playable" : "", mine && !playable ? "idle" : "",
        this.drawn.has(card) ? "kc-new" : ""].join(" ");
      const el = cardEl(card, DECK, { classes, onTap: () => this.tapCard(card) });
      el.setAttribute("aria-pressed", String(selected));
      els.push(el);
    }
    const width = (this.el.clientWidth || window.innerWidth) - 12; // the table's padding
    const tall = window.innerHeight >= 760;
    const rows = fanOut(this.hand, els, width, Math.min(60, (window.innerWidth - 40) / 6), tall ? 3 : 2);
    this.el.dataset.handRows = String(rows); // a short phone's board gives way to a second row
  }

  renderActions(s, moves) {
    clear(this.actions);
    if (this.isOver()) {
      this.actions.append(this.resultPanel(s));
      return;
    }
    if (this.you === null) return;
    const mine = this.isMyTurn();
    let reason = "";
    if (!mine) reason = t("kc_wait", { name: this.ctx.name(this.running ? this.shown.turn : s.turn) });
    else if (!moves.end) reason = s.must_play ? t("kc_reason_drawn") : t("kc_reason_king");
    const draws = s.options.draw_timing === "end" && s.stock > 0;
    const button = h("button", { class: "btn primary kc-end-turn", type: "button", disabled: !moves.end,
      "aria-describedby": reason ? "kc-reason" : null, onclick: () => this.send({ type: "end_turn" }) },
    h("span", { text: t("kc_end_turn") }),
    draws ? h("span", { class: "kc-sub", text: t("kc_and_draw", { n: Math.min(s.options.draw_count, s.stock) }) }) : null);
    this.actions.append(button, h("p", { class: "kc-reason", id: "kc-reason", text: reason }));
  }

  resultPanel(s) {
    return resultEl(s, (seat) => this.ctx.name(seat), (seat, score) => scoreText(s.options.scoring, score), {
      again: () => (this.ctx.playAgain ? this.ctx.playAgain() : this.ctx.showResult()),
      show: () => this.ctx.showResult(),
    });
  }
}
