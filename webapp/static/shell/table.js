// One open table: its socket, the lobby or the game renderer chosen by the game's name, refusals, and the game's end
// (game_over.js) when it comes.

import { h, clear, toast } from "./dom.js";
import { t, you } from "./i18n.js";
import { TableSocket } from "./net.js";
import { renderLobby } from "./lobby.js";
import * as tg from "./tg.js";
import { rulesButton } from "./rules.js";
import { DealBook, fairBadge } from "./fair.js";
import { soundButton } from "./sound.js";
import { settingsButton } from "./settings.js";
import { Coach } from "./coach.js";
import { game as gameOf, loadAll } from "./games.js";
import { seatLabel, titleParts } from "./titles.js";
import { GameOver } from "./game_over.js";
import { dailyOver } from "./daily.js";
import { askForTurnMessages } from "./write_access.js";

// Whether a block of text runs onto a second line.
function wraps(el) {
  const line = parseFloat(getComputedStyle(el).lineHeight);
  return el.getBoundingClientRect().height > line * 1.5;
}

export class TableScreen {
  constructor(app, tableId) {
    this.app = app;
    this.tableId = tableId;
    this.view = null;
    this.renderer = null;
    this.rendererGame = null;
    this.loading = null;
    this.busy = false;
    this.sheetShownFor = null;
    this.ending = new GameOver(this);
    tg.fullscreen(); // on Telegram's phones the table takes the whole screen
    this.body = h("div", { class: "table-body" });
    this.conn = h("span", { class: "conn", role: "img", title: t("connecting"), "aria-label": t("connecting") });
    this.el = h("section", { class: "screen table-screen", dataset: { table: tableId } },
      h("header", { class: "topbar" },
        h("button", { class: "icon-btn home-btn", type: "button", "aria-label": t("home"), onclick: () => app.goHome() },
          "‹"),
        this.title = h("h1", { class: "title", text: t("loading") }),
        this.fair = fairBadge(() => this.view, () => this.deals, (seat) => this.seatName(seat)),
        rulesButton(() => (this.view ? this.view.table.game : ""), () => (this.view ? this.view.table.options : null)),
        soundButton(),
        settingsButton(),
        this.conn),
      this.offline = h("p", { class: "offline-note", role: "alert", hidden: true, text: t("connection_lost") }),
      this.standin = h("p", { class: "standin-note", role: "status", hidden: true, text: t("timed_out_you") }),
      this.body);
    this.socket = new TableSocket(tableId, () => app.initData, {
      onView: (view, events, kind) => this.onView(view, events, kind),
      onRefused: (frame) => this.onRefused(frame),
      onError: (frame) => this.onError(frame),
      onStatus: (status) => this.onStatus(status),
    });
  }

  destroy() {
    if (this.coach) this.coach.destroy();
    this.socket.close();
    tg.closingConfirmation(false);
    if (this.renderer) this.renderer.destroy();
    tg.mainButton(null);
    this.el.remove();
  }

  // A lost connection is said in words at once and the table takes no tap until it is back (a move made meanwhile
  // could not reach the server); when it is back the page says so.
  onStatus(status) {
    this.conn.className = `conn ${status}`;
    const label = status === "open" ? t("connected") : t("reconnecting");
    this.conn.title = label;
    this.conn.setAttribute("aria-label", label);
    const lost = status !== "open";
    if (!lost && !this.offline.hidden) toast(t("connection_back"));
    this.offline.hidden = !lost;
    this.el.classList.toggle("offline", lost);
  }

  onError(frame) {
    if (frame.code === "unauthorized") {
      this.app.authFailed(frame.message);
      return;
    }
    if (frame.code === "table_not_found") {
      this.app.tableMissing();
      return;
    }
    toast(frame.message || t("error_generic"), "error");
  }

  onRefused(frame) {
    tg.haptic("error");
    toast(frame.message || t("refused"), "error");
    if (this.renderer && this.renderer.refused) this.renderer.refused(frame);
  }

  onView(view, events, kind) {
    this.view = view;
    if (!this.deals) this.deals = new DealBook(view.table.id);
    this.deals.see(view, events);
    this.noteTimeouts(view, events);
    this.fair.hidden = !view.table.seed_hash || view.table.status === "lobby";
    this.el.dataset.seq = String(view.seq);
    this.el.dataset.status = view.table.status;
    // closing the Mini App mid-game asks first
    tg.closingConfirmation(view.table.status === "playing" && view.you !== null && view.you !== undefined);
    this.showTitle(view.table);
    askForTurnMessages(this, view); // seated here while the bot cannot write to them: asked once
    if (view.table.lesson && !this.coach) {
      this.coach = new Coach(this, view.table.game);
      this.coach.mount(this.el, this.body);
    }
    if (view.table.status === "lobby") {
      this.dropRenderer();
      renderLobby(this.body, view, this.lobbyContext());
      return;
    }
    if (view.table.status === "abandoned") {
      this.dropRenderer();
      this.showAbandoned(view);
      return;
    }
    this.showGame(view, events, kind);
    if (kind === "rematch" && this.sheetShownFor === view.table.id) {
      toast(t("rematch_opened"));
      this.ending.show(view); // again, now leading to the rematch, in case it was closed
    }
  }

  // The game's name, and under it what this table plays when that is not the game's default.
  showTitle(table) {
    const { game, variant } = titleParts(table);
    // a closing "(…)" stays whole: a long name wraps before it, never inside it
    const [, name, tail] = /^(.*?)\s*(\([^()]*\))?$/.exec(game);
    const show = (main, under, tailed) => {
      const title = h("span", { class: "title-game", text: tailed ? `${main} ` : main });
      if (tailed) title.append(h("span", { class: "nowrap", text: tail }));
      clear(this.title).append(title);
      this.title.classList.toggle("long", main.length + (tailed ? tail.length : 0) > 18);
      if (under) this.title.append(h("span", { class: "title-variant", text: under }));
      return title;
    };
    const title = show(tail ? name : game, variant, Boolean(tail));
    // a name too long for the bar's one line (a long Korean name with its "(…)" at 360 px) puts what that says on the
    // small line under it, as a variant's is, rather than wrapping the name or cutting it short
    if (tail && !variant && wraps(title)) {
      const short = show(name, tail.slice(1, -1), false);
      if (wraps(short)) this.title.classList.add("long");
    }
  }

  // A move the timer made for an absent player is never made behind their back.
  noteTimeouts(view, events) {
    for (const e of events || []) {
      if (e.type !== "timed_out") continue;
      if (e.seat === view.you) this.standin.hidden = false;
      else toast(t("timed_out_other", { name: this.seatName(e.seat) }));
    }
  }

  dropRenderer() {
    if (this.renderer) this.renderer.destroy();
    this.renderer = null;
    this.rendererGame = null;
    tg.mainButton(null);
  }

  async showGame(view, events, kind) {
    const game = (view.state && view.state.game) || view.table.game;
    if (this.renderer && this.rendererGame === game) {
      this.renderer.update(view, events, kind);
      this.maybeGameOver(view);
      return;
    }
    if (this.loading === game) return; // the newest view is applied once the module arrives
    // each game's table is its own module exporting createRenderer(container, ctx) -> {update(view, events), destroy()}
    const desc = gameOf(game);
    this.dropRenderer();
    if (!desc) {
      clear(this.body).append(h("div", { class: "notice", text: t("unknown_game", { game }) }));
      return;
    }
    this.loading = game;
    const [module] = await Promise.all([desc.table(), loadAll(desc.styles)]);
    this.loading = null;
    if (!this.view) return;
    clear(this.body);
    this.renderer = module.createRenderer(this.body, this.gameContext());
    this.rendererGame = game;
    // the game just began in front of the player (the lobby's Start): its first frame's events tell the deal
    const started = this.view === view && kind !== "welcome";
    this.renderer.update(this.view, started ? events || [] : [], started ? kind : "welcome");
    this.maybeGameOver(this.view);
  }

  // A seat's name for sentences: the viewer's is marked (t() then picks the "you" sentence), an AI's says AI in
  // the page's language.
  seatName(seat) {
    const s = this.view && this.view.table.seats[seat];
    if (!s) return t("seat_n", { n: seat + 1 });
    if (this.view.you === seat) return you();
    return seatLabel(s) || t("seat_n", { n: seat + 1 });
  }

  gameContext() {
    return {
      name: (seat) => this.seatName(seat),
      seatInfo: (seat) => this.view && this.view.table.seats[seat],
      act: (action) => this.act(action),
      isBusy: () => this.busy || !this.offline.hidden,
      showResult: () => this.ending.show(this.view),
      playAgain: () => this.ending.again(),
      shown: (view, events) => { if (this.coach) this.coach.see(view, events); },
      holding: () => Boolean(this.coach && this.coach.holding()),
    };
  }

  // The coach of a guided game let its step go: frames it held may show now.
  coachResumed() {
    if (this.renderer && this.renderer.pacer) this.renderer.pacer.pump();
  }

  async act(action) {
    if (this.busy || !this.view) return { ok: false, code: "busy" };
    this.busy = true;
    this.standin.hidden = true;
    try {
      const result = await this.socket.act(action, this.view.seq);
      if (!result.ok && result.code === "offline") toast(t("offline"), "error");
      return result;
    } finally {
      this.busy = false;
    }
  }

  lobbyContext() {
    return {
      userId: this.app.user && this.app.user.id,
      config: this.app.config,
      games: (this.app.config && this.app.config.games) || [],
      op: (op, body) => this.lobbyOp(op, body),
      // a prepared invitation and the table's link ({id, expires, link}); throws where there is no bot
      invite: () => this.app.api.post(`/api/tables/${encodeURIComponent(this.tableId)}/invite`, {}),
    };
  }

  async lobbyOp(op, body = {}) {
    try {
      const info = await this.app.api.post(`/api/tables/${encodeURIComponent(this.tableId)}/${op}`, body);
      if (op === "leave" && info && info.status === "lobby") this.app.goHome();
      return info;
    } catch (err) {
      tg.haptic("error");
      if (err.status === 401) this.app.authFailed();
      else toast(err.message || t("error_generic"), "error");
      return null;
    }
  }

  maybeGameOver(view) {
    if (view.table.status !== "finished" || this.sheetShownFor === view.table.id) return;
    // a renderer still replaying the last moves calls back once they are shown
    if (this.renderer && this.renderer.settling && this.renderer.settling(() => this.maybeGameOver(this.view))) return;
    this.sheetShownFor = view.table.id;
    if (view.table.daily) {
      this.showDailyOver(view);
      return;
    }
    const you = view.you;
    if (you !== null && you !== undefined && view.table.result && view.table.result.placements[you] === 1) {
      tg.haptic("success");
    }
    this.ending.show(view);
    tg.offerHomeScreen();
  }

  showAbandoned(view) {
    if (view.table.daily) {
      this.showDailyOver(view);
      return;
    }
    const notice = h("div", { class: "notice" },
      h("p", { text: t("table_cancelled") }),
      view.table.seed ? h("p", { class: "seed" }, h("span", { class: "label", text: t("seed") }),
        h("code", { text: view.table.seed })) : null,
      h("button", { class: "btn primary", type: "button", onclick: () => this.app.goHome(), text: t("home") }));
    clear(this.body).append(notice);
  }

  // A deal of the day's end (stopped after the hand it scores, or a game of one deal played out): the person's
  // result with Standings and Share, never Play again (the day's deal is played once).
  showDailyOver(view) {
    const notice = h("div", { class: "notice" }, h("p", { text: t("loading") }),
      h("button", { class: "btn primary", type: "button", onclick: () => this.app.goHome(), text: t("home") }));
    clear(this.body).append(notice);
    dailyOver(this.app, view.table.id, notice);
  }
}
