// A finished game, move by move, with every hand shown: step back and forth, jump by the slider, by hand or trick, play
// at a chosen speed, and check on the same screen that the revealed seed hashes to the hash published at the start.
// The table is drawn compactly from each step's views (every seat's view holds its own hand), for any game.

import { h, clear, loadStyles, toast } from "./dom.js";
import { t } from "./i18n.js";
import { aiName, shareLink } from "./lobby.js";
import { cardEl, cardName, sortHand } from "./cards.js";
import { deckOf, game as gameOf, handSize, loadAll } from "./games.js";
import { scoreText, variantLabel } from "./history.js";
import { gameTitle } from "./titles.js";
import * as tg from "./tg.js";

loadStyles(new URL("./record.css", import.meta.url).href); // not awaited: the page shows before it is in

const SPEEDS = [["0.5", 2400], ["1", 1200], ["2", 600], ["4", 300]];
// Control icons as SVG paths (glyphs like ⏮ are missing from many phone fonts).
const ICONS = {
  prevHand: "M5 4h2.5v16H5zM20 4v16L8.5 12z",
  prevTrick: "M19 5v14l-9-7zM10 5v14l-7-7z",
  nextTrick: "M5 5v14l9-7zM14 5v14l7-7z",
  back: "M17 4v16L5 12z",
  play: "M7 4v16l13-8z",
  pause: "M6 4h4.5v16H6zM13.5 4H18v16h-4.5z",
  forward: "M7 4v16l12-8z",
  nextHand: "M4 4v16l11.5-8zM16.5 4H19v16h-2.5z",
};

function icon(name, word = null) {
  const span = document.createElement("span");
  span.className = "rp-icon";
  span.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="${ICONS[name]}"/></svg>`;
  if (word) span.append(h("span", { class: "rp-word", text: word, "aria-hidden": "true" }));
  return span;
}

// The table id in a Telegram start parameter "r_<table id>", or null.
export function replayFromStart(start) {
  return start && start.startsWith("r_") && start.length > 2 ? start.slice(2) : null;
}

// The lowercase hex SHA-256 of ``text`` (null where the browser has no Web Crypto, e.g. on plain http).
export async function sha256Hex(text) {
  if (!(globalThis.crypto && crypto.subtle)) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function chips(cards, deck, just = null) {
  return h("div", { class: "chips" }, cards.map((card) => cardEl(card, deck, { classes: card === just ? "chip just" : "chip" })));
}

export class ReplayScreen {
  constructor(app, tableId) {
    this.app = app;
    this.tableId = tableId;
    this.data = null;
    this.rp = {};
    this.steps = [];
    this.index = 0;
    this.timer = null;
    this.closed = false;
    this.title = h("h1", { class: "title", text: t("replay") });
    this.body = h("div", { class: "replay-body" }, h("p", { class: "notice", text: t("loading") }));
    this.el = h("section", { class: "screen replay-screen", dataset: { table: tableId } },
      h("header", { class: "topbar" },
        h("button", { class: "icon-btn home-btn", type: "button", "aria-label": t("home"), onclick: () => app.goHome() }, "‹"),
        this.title,
        h("span", { class: "topbar-gap" })),
      this.body);
    this.onKey = (ev) => {
      if (ev.target && /^(INPUT|SELECT|TEXTAREA)$/.test(ev.target.tagName) && ev.target.type !== "range") return;
      if (ev.key === "ArrowLeft") { this.pause(); this.go(this.index - 1); ev.preventDefault(); }
      if (ev.key === "ArrowRight") { this.pause(); this.go(this.index + 1); ev.preventDefault(); }
    };
    document.addEventListener("keydown", this.onKey);
    this.load();
  }

  destroy() {
    this.closed = true;
    this.pause();
    document.removeEventListener("keydown", this.onKey);
    this.el.remove();
  }

  async load() {
    let page;
    try {
      page = await this.app.api.get(`/api/replay/${encodeURIComponent(this.tableId)}`);
    } catch (err) {
      if (err.status === 401) { this.app.authFailed(); return; }
      if (err.status === 404 && this.app.replayMissing && this.app.replayMissing(this.tableId)) return;
      clear(this.body).append(h("div", { class: "notice" }, h("p", { role: "alert", text: err.message || t("error_generic") }),
        h("button", { class: "btn primary", type: "button", text: t("home"), onclick: () => this.app.goHome() })));
      return;
    }
    if (this.closed) return;
    this.data = page;
    this.deck = deckOf(page.game);
    this.rp = (gameOf(page.game) || {}).replay || {};
    loadAll(this.rp.styles);
    this.steps = page.steps;
    this.build();
    this.go(0);
    this.checkSeed();
    let next = page.next;
    while (next !== null && next !== undefined && !this.closed) {
      try {
        const more = await this.app.api.get(`/api/replay/${encodeURIComponent(this.tableId)}?from=${next}`);
        this.steps.push(...more.steps);
        next = more.next;
      } catch {
        break;
      }
      this.slider.max = String(this.steps.length - 1);
      this.renderPosition();
    }
    this.el.dataset.loaded = String(this.steps.length);
  }

  seatName(seat) {
    const s = this.data.seats[seat];
    if (!s) return t("seat_n", { n: seat + 1 });
    return s.is_ai ? aiName(s.name) : s.name;
  }

  build() {
    const d = this.data;
    this.title.textContent = `${t("replay")} · ${gameTitle(d.game)}`;
    const variant = variantLabel(d.game, d.options);
    this.caption = h("div", { class: "rp-caption", role: "status", "aria-live": "polite" });
    this.board = h("div", { class: "rp-board" });
    this.seatsEl = h("div", { class: "rp-seats" });
    this.slider = h("input", { type: "range", class: "rp-slider", min: "0", max: String(this.steps.length - 1), value: "0",
      "aria-label": t("rp_step_slider"), oninput: () => { this.pause(); this.go(Number(this.slider.value)); } });
    this.position = h("span", { class: "rp-position" });
    const button = (cls, label, name, onclick, word = null) => h("button", { class: `btn rp-btn ${cls}`, type: "button",
      "aria-label": label, title: label, onclick }, icon(name, word));
    const jump = (cls, label, name, keyOf, dir, word) => button(cls, label, name, () => { this.pause(); this.go(this.segmentStart(keyOf, dir)); }, word);
    const hand = (i) => this.handOf(i);
    const trick = (i) => this.trickOf(i);
    this.playBtn = button("rp-toggle", t("rp_play"), "play", () => (this.timer ? this.pause() : this.play()));
    this.speed = h("select", { class: "rp-speed", "aria-label": t("rp_speed"), onchange: () => { if (this.timer) this.play(); } },
      SPEEDS.map(([x, ms]) => h("option", { value: String(ms), selected: x === "1", text: `${x}×` })));
    this.prevHandBtn = jump("rp-prev-hand", t("rp_prev_hand"), "prevHand", hand, -1, t("rp_hand"));
    this.prevTrickBtn = jump("rp-prev-trick", t("rp_prev_trick"), "prevTrick", trick, -1, t("rp_trick"));
    this.nextTrickBtn = jump("rp-next-trick", t("rp_next_trick"), "nextTrick", trick, 1, t("rp_trick"));
    this.nextHandBtn = jump("rp-next-hand", t("rp_next_hand"), "nextHand", hand, 1, t("rp_hand"));
    this.backBtn = button("rp-back", t("rp_back"), "back", () => { this.pause(); this.go(this.index - 1); });
    this.fwdBtn = button("rp-forward", t("rp_forward"), "forward", () => { this.pause(); this.go(this.index + 1); });
    this.seedStatus = h("p", { class: "rp-verify checking", role: "status", text: t("rp_checking") });
    const order = d.seats.map((s) => s.seat)
      .sort((a, b) => ((d.result && d.result.placements[a]) || 9) - ((d.result && d.result.placements[b]) || 9));
    clear(this.body).append(
      h("div", { class: "rp-meta" },
        variant ? h("span", { class: "rp-variant", text: variant }) : null,
        h("span", { class: "rp-players", text: d.seats.map((s) => this.seatName(s.seat)).join(" · ") })),
      this.caption,
      this.board,
      this.seatsEl,
      h("div", { class: "rp-controls" },
        h("div", { class: "rp-slider-row" }, this.slider, this.position),
        h("div", { class: "rp-buttons" }, this.backBtn, this.playBtn, this.fwdBtn, this.speed),
        this.jumps = h("div", { class: "rp-buttons rp-jumps", role: "group", "aria-label": t("rp_jump") },
          this.prevHandBtn, this.prevTrickBtn, this.nextTrickBtn, this.nextHandBtn)),
      d.result ? h("div", { class: "rp-result" },
        h("h2", { text: t("game_over") }),
        h("ol", { class: "placements" }, order.map((seat) => h("li", { class: d.result.placements[seat] === 1 ? "first" : "" },
          h("span", { class: "place", text: String(d.result.placements[seat] || "") }),
          h("span", { class: "pname", dir: "auto", text: this.seatName(seat) }),
          h("span", { class: "pscore", text: scoreText(d.game, d.result.scores[seat] ?? 0, d.options) }))))) : null,
      h("div", { class: "seed rp-seed" },
        h("h2", { text: t("rp_seed_check") }),
        h("div", {}, h("span", { class: "label", text: t("seed") }), h("code", { class: "seed-value", text: d.seed })),
        h("div", {}, h("span", { class: "label", text: t("seed_hash") }), h("code", { class: "seed-hash", text: d.seed_hash })),
        this.seedStatus,
        h("p", { class: "hint", text: t("seed_explained") })),
      h("div", { class: "row rp-share" },
        h("button", { class: "btn link", type: "button", text: t("rp_copy_link"), onclick: () => this.copyLink() })));
  }

  async checkSeed() {
    const d = this.data;
    let hex = null;
    try { hex = await sha256Hex(d.seed); } catch { hex = null; }
    if (this.closed) return;
    const ok = hex !== null && hex === String(d.seed_hash).toLowerCase();
    this.seedStatus.className = `rp-verify ${hex === null ? "unknown" : ok ? "verified" : "mismatch"}`;
    this.seedStatus.textContent = hex === null ? t("rp_cannot_check") : ok ? t("rp_verified") : t("rp_mismatch");
    this.el.dataset.seed = hex === null ? "unknown" : ok ? "verified" : "mismatch";
  }

  async copyLink() {
    const link = shareLink(this.tableId, this.app.config, "replay");
    try {
      await navigator.clipboard.writeText(link);
      tg.haptic("success");
      toast(t("link_copied"));
    } catch {
      window.prompt(t("rp_copy_link"), link);
    }
  }

  handOf(index) {
    const step = this.steps[index];
    return step ? step.views[0].hand_no : undefined;
  }

  // Which trick a step is in (of which hand), or undefined in a game without tricks.
  trickOf(index) {
    const step = this.steps[index];
    return step && step.views[0].trick_no !== undefined ? `${step.views[0].hand_no}:${step.views[0].trick_no}` : undefined;
  }

  // The first step of the next hand or trick (dir 1), or of this one, or of the previous one if already there (dir -1);
  // ``keyOf`` says which hand or trick a step is in.
  segmentStart(keyOf, dir) {
    const here = keyOf(this.index);
    if (here === undefined) return this.index;
    if (dir > 0) {
      for (let i = this.index + 1; i < this.steps.length; i += 1) if (keyOf(i) !== here) return i;
      return this.steps.length - 1;
    }
    let start = this.index;
    while (start > 0 && keyOf(start - 1) === here) start -= 1;
    if (start < this.index) return start;
    if (start === 0) return 0;
    const before = keyOf(start - 1);
    while (start > 0 && keyOf(start - 1) === before) start -= 1;
    return start;
  }

  play() {
    this.pause();
    if (this.index >= this.steps.length - 1) this.go(0);
    this.timer = setInterval(() => {
      if (this.index >= this.steps.length - 1) { this.pause(); return; }
      this.go(this.index + 1);
    }, Number(this.speed.value));
    this.playBtn.replaceChildren(icon("pause"));
    this.playBtn.setAttribute("aria-label", t("rp_pause"));
    this.playBtn.title = t("rp_pause");
    this.el.dataset.playing = "true";
  }

  pause() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!this.playBtn) return;
    this.playBtn.replaceChildren(icon("play"));
    this.playBtn.setAttribute("aria-label", t("rp_play"));
    this.playBtn.title = t("rp_play");
    this.el.dataset.playing = "false";
  }

  go(index) {
    if (!this.steps.length) return;
    this.index = Math.max(0, Math.min(this.steps.length - 1, index));
    this.render();
  }

  renderPosition() {
    const total = (this.data.moves || 0) + 1;
    this.slider.value = String(this.index);
    this.position.textContent = t("rp_step_of", { n: this.index, of: total - 1 });
    this.backBtn.disabled = this.index === 0;
    this.fwdBtn.disabled = this.index >= this.steps.length - 1;
    const hasHands = this.handOf(this.index) !== undefined;
    const hasTricks = this.trickOf(this.index) !== undefined;
    this.prevHandBtn.hidden = this.nextHandBtn.hidden = !hasHands;
    this.prevTrickBtn.hidden = this.nextTrickBtn.hidden = !hasTricks;
    this.jumps.hidden = !hasHands && !hasTricks;
    for (const btn of [this.prevHandBtn, this.prevTrickBtn]) btn.disabled = this.index === 0;
    for (const btn of [this.nextHandBtn, this.nextTrickBtn]) btn.disabled = this.index >= this.steps.length - 1;
  }

  render() {
    const step = this.steps[this.index];
    const prev = this.steps[this.index - 1];
    const view = step.views[0];
    this.el.dataset.step = String(this.index);
    this.el.dataset.seq = String(step.seq);
    this.renderPosition();
    const where = [];
    if (view.hand_no !== undefined) where.push((this.rp.handLabel && this.rp.handLabel(view)) || t("hand_n", { n: view.hand_no }));
    if (view.trick_no !== undefined && (view.phase === "play" || view.trick.length)) {
      where.push(t("trick_n", { n: view.trick_no, of: view.tricks_per_hand || handSize(this.data.game, view.variant) || view.trick_no }));
    }
    clear(this.caption).append(
      h("span", { class: "rp-where", text: where.join(" · ") }),
      h("span", { class: "rp-what" }, ...this.describe(step, prev)));
    this.renderBoard(step, prev);
    this.renderSeats(step);
  }

  // What happened at this step, in words with the cards as chips.
  describe(step, prev) {
    const a = step.action;
    if (!a) return [t("rp_start")];
    const name = this.seatName(step.seat);
    const deck = this.deck;
    const card = (c) => cardName(c, deck);
    const person = this.data.seats[step.seat] && !this.data.seats[step.seat].is_ai;
    const auto = step.auto && person ? h("span", { class: "rp-auto", text: t("rp_auto") }) : null;
    let text;
    let cards = [];
    switch (a.type) {
      case "play": text = t("rp_played", { name, card: card(a.card) }); cards = [a.card]; break;
      case "give": text = t("rp_gave", { name }); cards = a.cards || []; break;
      default: {
        // the game's own moves are worded by its descriptor
        const told = this.rp.action ? this.rp.action(a, { name, card, deck, prev }) : null;
        if (told) ({ text, cards = [] } = told);
        else text = `${t("rp_who", { name })} ${a.type}`;
      }
    }
    return [h("span", { class: "rp-text", text }), cards.length ? chips(cards, deck) : null, auto];
  }

  renderBoard(step) {
    const view = step.views[0];
    const just = step.action && step.action.card;
    clear(this.board);
    // a game with a board of its own draws it; the others show the trick
    const board = this.rp.board ? this.rp.board(view, { deck: this.deck, just, chips: (cards, hot) => chips(cards, this.deck, hot) }) : null;
    if (board) {
      this.board.className = board.className;
      this.board.append(...board.children);
      return;
    }
    this.board.className = "rp-board trick-board";
    const trick = view.trick && view.trick.length ? view.trick : [];
    const shown = trick.length ? trick : (view.last_trick || []);
    const done = !trick.length && shown.length;
    const extras = [];
    if (this.rp.tags) extras.push(...this.rp.tags(view, { deck: this.deck, chips: (cards) => chips(cards, this.deck) }));
    this.board.append(
      h("div", { class: `rp-trick${done ? " done" : ""}` }, shown.map((p) => h("div", { class: "rp-played", dataset: { seat: String(p.seat) } },
        cardEl(p.card, this.deck, { classes: p.card === just ? "chip big just" : "chip big" }),
        h("span", { class: "rp-who", text: this.seatName(p.seat) })))));
    if (extras.length) this.board.append(h("div", { class: "rp-tags" }, extras));
  }

  renderSeats(step) {
    const view = step.views[0];
    clear(this.seatsEl);
    step.views.forEach((v, seat) => {
      const hand = sortHand(v.hand || [], this.deck);
      const turn = !view.over && (view.to_act || []).includes(seat);
      const facts = [];
      if (view.dealer === seat) facts.push(h("span", { class: "badge dealer", text: t("dealer") }));
      const scores = this.rp.seatFacts ? this.rp.seatFacts(view, seat, hand) : [];
      facts.push(...scores.map((text) => h("span", { class: "rp-score", text })));
      this.seatsEl.append(h("div", { class: `rp-seat${turn ? " turn" : ""}`, dataset: { seat: String(seat) } },
        h("div", { class: "pline" }, h("span", { class: "pname", dir: "auto", text: this.seatName(seat) }), ...facts),
        h("div", { class: "rp-hand", dataset: { cards: hand.join(" ") } }, chips(hand, this.deck))));
    });
  }
}
