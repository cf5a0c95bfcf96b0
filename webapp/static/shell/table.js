// One open table: its socket, the lobby or the game renderer chosen by the game's name, refusals and game over.

import { h, clear, toast } from "./dom.js";
import { t, tn, tOr, you } from "./i18n.js";
import { languageButton } from "./language.js";
import { TableSocket } from "./net.js";
import { aiName, renderLobby, valueLabel } from "./lobby.js";
import { placeLabel, ratingText } from "./history.js";
import * as tg from "./tg.js";
import { rulesButton } from "./rules.js";
import { DealBook, fairBadge, fairFold } from "./fair.js";
import { soundButton } from "./sound.js";
import { Coach } from "./coach.js";
import { facts as factsOf, game as gameOf, loadAll, setting as settingOf } from "./games.js";

// A sentence about people (``param`` one name, or "names" for several): each name in its own <bdi>.
function withNames(key, param, names) {
  const marks = names.map((_, i) => `\u0001${i}\u0002`);
  const text = t(key, { [param]: param === "names" ? marks.join(", ") : marks[0] || "" });
  return text.split(/\u0001(\d+)\u0002/).map((part, i) => (i % 2 ? h("bdi", { text: String(names[Number(part)]) }) : part));
}

// A trophy drawn in the page (no emoji font needed).
function trophy() {
  const span = h("span", { class: "go-icon", "aria-hidden": "true" });
  span.innerHTML = '<svg viewBox="0 0 24 24" width="44" height="44"><path d="M7 2h10v2h4v3a5 5 0 01-4.6 5A5 5 0 0113 15.9V19h3v3H8v-3h3v-3.1A5 5 0 017.6 12 5 5 0 013 7V4h4zm0 4H5v1a3 3 0 002 2.8zm10 0v3.8A3 3 0 0019 7V6z" fill="#e3a81b" stroke="#9a6b00" stroke-width=".6"/></svg>';
  return span;
}

// A few pieces of confetti over a win (the stylesheet keeps them still when motion is reduced).
function confetti() {
  const colours = ["#e3a81b", "#e5534b", "#3e9bd6", "#5cb85c", "#b36ae2"];
  return h("div", { class: "confetti", "aria-hidden": "true" }, Array.from({ length: 18 }, (_, i) => h("i", {
    style: `--x:${(i * 37) % 100}%;--d:${(i % 6) * 0.08}s;--r:${(i * 47) % 360}deg;background:${colours[i % colours.length]}` })));
}

// A rating change as people read it: "+1.8", "−0.9" (a real minus sign), "0.0"; with the rating it led to in words.
function ratingChange({ before, after }) {
  const delta = Math.round((after - before) * 10) / 10;
  const text = delta > 0 ? `+${ratingText(delta)}` : ratingText(delta);
  return h("span", { class: `pdelta${delta > 0 ? " up" : delta < 0 ? " down" : ""}`, role: "img", text,
    "aria-label": t("rating_change", { rating: ratingText(after), change: text }) });
}

// A game's title in the page's language (the server's English title when the page has none).
export function gameTitle(game, fallback) {
  return tOr(`game_${game}`, fallback || game);
}

// What this table plays beyond its game's name ("9-5-2", "Penalty points to 50"), or "" for the game's default:
// its game's headline setting (the server names it, with its default) when the game shows it in titles.
export function titleVariant(game, options) {
  const desc = gameOf(game);
  const info = factsOf(game);
  const name = info && info.headline;
  const value = name && options ? options[name] : undefined;
  const described = settingOf(game, name);
  if (!desc || desc.headlineInTitle === false || value === undefined || !described || value === described.default) return "";
  return (desc.titleLabel && desc.titleLabel(value, options)) || valueLabel(name, value);
}

// A table's title as its game's name and, when not the game's default, what it plays ({game, variant}).
export function titleParts(table) {
  const variant = titleVariant(table.game, table.options);
  const full = gameTitle(table.game, table.title);
  return { game: variant ? tOr(`game_${table.game}_short`, full) : full, variant };
}

// A table's title on one line: its game, then what it plays when not the default ("<game> · <variant>").
export function tableTitle(table) {
  const { game, variant } = titleParts(table);
  return variant ? t("title_variant", { game, variant }) : game;
}

// Whether a block of text runs onto a second line.
function wraps(el) {
  const line = parseFloat(getComputedStyle(el).lineHeight);
  return el.getBoundingClientRect().height > line * 1.5;
}

// A seat's name as shown: AI players' "(AI)" in the page's language ("Ada (ИИ)").
export function seatLabel(seat) {
  const name = (seat && seat.name) || "";
  return seat && seat.is_ai ? aiName(name) : name;
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
        languageButton(),
        this.conn),
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

  onStatus(status) {
    this.conn.className = `conn ${status}`;
    const label = status === "open" ? t("connected") : t("reconnecting");
    this.conn.title = label;
    this.conn.setAttribute("aria-label", label);
  }

  onError(frame) {
    if (frame.code === "unauthorized") {
      this.app.authFailed();
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
      this.showGameOver(view); // again, now leading to the rematch, in case it was closed
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
      isBusy: () => this.busy,
      showResult: () => this.showGameOver(this.view),
      playAgain: () => this.again(),
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
    if (op === "join") tg.askWriteAccess(); // taking a seat: the bot will need to write when it is their turn
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
    const you = view.you;
    if (you !== null && you !== undefined && view.table.result && view.table.result.placements[you] === 1) {
      tg.haptic("success");
    }
    this.showGameOver(view);
    tg.offerHomeScreen();
  }

  showGameOver(view) {
    const table = view.table;
    const result = table.result || { scores: [], placements: [], winners: [] };
    const order = table.seats.map((s) => s.seat).sort((a, b) => (result.placements[a] || 9) - (result.placements[b] || 9));
    const places = order.map((seat) => result.placements[seat]);
    const target = view.state && view.state.target_score;
    const me = view.you;
    const seated = me !== null && me !== undefined;
    const won = seated && (result.winners || []).includes(me);
    const close = () => sheet.remove();
    const placements = h("ol", { class: "placements" },
      order.map((seat) => h("li", { class: `${result.placements[seat] === 1 ? "first" : ""}${seat === me ? " you" : ""}`.trim(),
        dataset: { seat: String(seat) } },
        h("span", { class: "place", "aria-label": t("place_n", { n: result.placements[seat] || "" }),
          text: result.placements[seat] ? placeLabel(result.placements[seat], places) : "" }),
        h("span", { class: "pname", dir: "auto", text: this.seatName(seat) }),
        h("span", { class: "pscore", text: this.renderer && this.renderer.scoreText
          ? this.renderer.scoreText(seat, result.scores[seat] ?? 0) : tn("points_n", result.scores[seat] ?? 0) }))));
    const fair = fairFold(view, this.deals, (seat) => this.seatName(seat));
    const sheet = h("div", { class: "sheet-backdrop", role: "dialog", "aria-modal": "true", "aria-labelledby": "go-title" },
      h("div", { class: `sheet game-over${won ? " won" : ""}` },
        won ? confetti() : null,
        h("h2", { id: "go-title", text: t("game_over") }),
        h("div", { class: "go-moment" },
          won ? trophy() : null,
          h("p", { class: "winner" }, this.winnerLine(result.winners || [], me)),
          seated && !won && result.placements[me] ? h("p", { class: "go-place",
            text: t("your_place", { place: placeLabel(result.placements[me], places) }) }) : null),
        placements,
        target ? h("p", { class: "hint go-target", text: tn("target_was", target) }) : null,
        table.lesson ? h("p", { class: "lesson-done", text: t("coach_lesson_done") }) : null,
        table.lesson
          ? h("button", { class: "btn primary real-game", type: "button", onclick: () => this.realGame(), text: t("coach_real_game") })
          : this.againButton(view),
        h("div", { class: "row go-more" },
          h("button", { class: "btn", type: "button", onclick: close, text: t("view_table") }),
          this.renderer && this.renderer.showScores ? h("button", { class: "btn score-btn", type: "button",
            text: t("score_sheet"), onclick: () => this.renderer.showScores() }) : null,
          h("button", { class: "btn go-home", type: "button", onclick: () => this.app.goHome(), text: t("home") })),
        fair));
    document.querySelectorAll(".sheet-backdrop").forEach((el) => el.remove());
    this.el.append(sheet);
    if (!table.lesson) this.showRatingChanges(table.id, placements);
  }

  // Each person's rating change beside their place ("+1.8", "−0.9"); AI players are never rated and show none.
  async showRatingChanges(tableId, placements) {
    if (!this.ratings || this.ratings.id !== tableId) {
      const asked = { id: tableId, seats: this.app.api.get(`/api/tables/${encodeURIComponent(tableId)}/ratings`)
        .then((data) => (data && data.seats) || []) };
      asked.seats.catch(() => { if (this.ratings === asked) this.ratings = null; }); // asked again next time
      this.ratings = asked;
    }
    let seats;
    try {
      seats = await this.ratings.seats;
    } catch {
      return; // the standings stand without them
    }
    if (!seats.length || !placements.isConnected) return;
    const bySeat = new Map(seats.map((s) => [s.seat, s]));
    placements.classList.add("rated");
    for (const li of placements.children) {
      const change = bySeat.get(Number(li.dataset.seat));
      li.append(change ? ratingChange(change) : h("span", { class: "pdelta", "aria-hidden": "true" }));
    }
  }

  // Who won, as a line whose names are each isolated (a right-to-left name keeps the sentence in order).
  winnerLine(winners, me) {
    const people = (seats) => seats.map((seat) => this.seatName(seat));
    if (winners.length === 1 && winners[0] === me) return t("you_won");
    if (winners.length > 1) {
      const others = winners.filter((seat) => seat !== me);
      return others.length < winners.length
        ? withNames("co_winners_you", "names", people(others)) : withNames("co_winners", "names", people(winners));
    }
    return withNames("winner_is", "name", people(winners.slice(0, 1)));
  }

  // After a guided game: a real table of the same game with its usual settings, in the lobby to start.
  async realGame() {
    try {
      const info = await this.app.api.post("/api/tables", { game: this.view.table.game, options: {} });
      this.app.openTable(info.id);
    } catch (err) {
      toast(err.message || t("error_generic"), "error");
    }
  }

  // With other people at the table: its one rematch, the same new table for every player of it ("Join rematch"
  // once someone opened it). Alone with AI players, or only watching: a new table of the same game.
  withFriends(view) {
    const you = view.you;
    return you !== null && you !== undefined && view.table.seats.some((s) => s.handle && s.seat !== you);
  }

  againButton(view) {
    const rematch = this.withFriends(view) ? view.table.rematch || "" : null;
    return h("button", { class: "btn primary play-again", type: "button", dataset: rematch === null ? {} : { rematch },
      onclick: () => this.again(), text: rematch ? t("join_rematch") : t("play_again") });
  }

  again() {
    return this.withFriends(this.view) ? this.rematch() : this.playAgain();
  }

  async rematch() {
    try {
      const info = await this.app.api.post(`/api/tables/${encodeURIComponent(this.tableId)}/rematch`, {});
      this.app.openTable(info.id);
    } catch (err) {
      tg.haptic("error");
      if (err.status === 401) this.app.authFailed();
      else toast(err.message || t("error_generic"), "error");
    }
  }

  async playAgain() {
    const table = this.view.table;
    try {
      const options = { ...table.options, timer: table.timer };
      const game = factsOf(table.game);
      if (game && game.min_players !== game.max_players) options.players = table.size;
      const info = await this.app.api.post("/api/tables", { game: table.game, options });
      // alone with AI players there is nobody to wait for: the new game starts at once (the AI fill the seats)
      if (this.view.you !== null && this.view.you !== undefined) {
        try {
          await this.app.api.post(`/api/tables/${encodeURIComponent(info.id)}/start`, {});
        } catch {
          // the lobby then offers Start itself
        }
      }
      this.app.openTable(info.id);
    } catch (err) {
      toast(err.message || t("error_generic"), "error");
    }
  }

  showAbandoned(view) {
    clear(this.body).append(h("div", { class: "notice" },
      h("p", { text: t("table_cancelled") }),
      view.table.seed ? h("p", { class: "seed" }, h("span", { class: "label", text: t("seed") }),
        h("code", { text: view.table.seed })) : null,
      h("button", { class: "btn primary", type: "button", onclick: () => this.app.goHome(), text: t("home") })));
  }
}
