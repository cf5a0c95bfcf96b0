// The page's entry point: sign-in (Telegram initData or the local name sign-in), home with its tabs, the open table,
// and replays (?replay=<table id>, or Telegram's start parameter r_<table id>).

import { h, clear, toast } from "./dom.js";
import { t } from "./i18n.js";
import { followAccount, languageSelect, saveChoicesWith, settleLanguage } from "./language.js";
import { Api } from "./net.js";
import { installSprite } from "./cards.js";
import { TableScreen } from "./table.js";
import { seatLabel, tableTitle } from "./titles.js";
import { homeTabs } from "./tabs.js";
import { ReplayScreen, replayFromStart } from "./replay.js";
import { showWatching } from "./watching.js";
import * as tg from "./tg.js";
import { openSettings, settingsButton } from "./settings.js";
import { gamePicker } from "./picker.js";
import { dailyPanel } from "./daily.js";

const LOCAL_KEY = "cardroom.init_data";

class App {
  constructor(root) {
    this.root = root;
    this.config = null;
    this.user = null;
    this.initData = "";
    this.screen = null;
    this.api = new Api(() => this.initData);
  }

  async boot() {
    if (settleLanguage()) return; // reloading in the player's language
    tg.init();
    installSprite();
    try {
      this.config = await this.api.get("/api/config");
    } catch (err) {
      this.show(h("div", { class: "notice" }, h("p", { text: t("server_unreachable") }),
        h("button", { class: "btn primary", type: "button", text: t("retry"), onclick: () => this.boot() })));
      return;
    }
    document.documentElement.dataset.mode = this.config.local_mode ? "local" : "telegram";
    window.addEventListener("popstate", () => this.route());
    this.initData = tg.initData() || (this.config.local_mode ? localStorage.getItem(LOCAL_KEY) || "" : "");
    if (!this.initData) {
      if (this.config.local_mode) this.showSignIn();
      else this.showOpenInTelegram();
      return;
    }
    await this.signedIn();
  }

  async signedIn() {
    try {
      const me = await this.api.get("/api/me");
      this.user = me.user;
      this.tables = me.tables || [];
      if (followAccount(me.language)) return; // reloading in the language the person chose
    } catch (err) {
      if (err.status === 401) this.authFailed(err.message);
      else toast(err.message || t("error_generic"), "error");
      return;
    }
    saveChoicesWith((code) => this.api.post("/api/me/language", { language: code }));
    tg.settingsButton(() => openSettings());
    const start = tg.startParam();
    if (start && !this.tableFromUrl() && !this.replayFromUrl()) {
      const replayId = replayFromStart(start);
      this.startTable = replayId ? start : null; // a table whose own id starts with r_ opens if no replay has it
      history.replaceState(null, "", replayId ? this.urlWith({ replay: replayId }) : this.urlFor(start));
    }
    this.route();
  }

  tableFromUrl() {
    return new URLSearchParams(location.search).get("table");
  }

  replayFromUrl() {
    return new URLSearchParams(location.search).get("replay");
  }

  // The page's address with these query parameters set (null removes one), keeping the others (?lang=, ?tab=).
  urlWith(params) {
    const url = new URL(location.href);
    for (const [name, value] of Object.entries(params)) {
      if (value === null || value === undefined || value === "") url.searchParams.delete(name);
      else url.searchParams.set(name, String(value));
    }
    return `${url.pathname}${url.search}${url.hash}`;
  }

  // The page's address for a table (or home).
  urlFor(tableId) {
    return this.urlWith({ table: tableId || null, replay: null });
  }

  route() {
    if (!this.user) return;
    const replayId = this.replayFromUrl();
    const tableId = this.tableFromUrl();
    if (replayId) this.showReplay(replayId);
    else if (tableId) this.showTable(tableId);
    else this.showHome();
  }

  openReplay(tableId) {
    history.pushState(null, "", this.urlWith({ replay: tableId, table: null }));
    this.showReplay(tableId);
  }

  showReplay(tableId) {
    const screen = new ReplayScreen(this, tableId);
    this.show(screen.el);
    this.screen = screen;
    tg.mainButton(null);
    tg.backButton(() => this.goHome());
  }

  // A replay that is not there: a start parameter that was a table's own id opens that table instead.
  replayMissing(tableId) {
    if (!this.startTable || this.startTable !== `r_${tableId}`) return false;
    const id = this.startTable;
    this.startTable = null;
    history.replaceState(null, "", this.urlFor(id));
    this.showTable(id);
    return true;
  }

  show(el) {
    if (this.screen && this.screen.destroy) this.screen.destroy();
    this.screen = null;
    document.querySelectorAll(".sheet-backdrop").forEach((e) => e.remove());
    clear(this.root).append(el);
  }

  openTable(tableId) {
    history.pushState(null, "", this.urlFor(tableId));
    this.showTable(tableId);
  }

  goHome() {
    history.pushState(null, "", this.urlFor(null));
    this.showHome();
  }

  showTable(tableId) {
    const screen = new TableScreen(this, tableId);
    showWatching(screen);
    this.show(screen.el);
    this.screen = screen;
    tg.backButton(() => this.goHome());
  }

  // A table link that leads nowhere (a wrong id, or a table that has ended and gone): say so, and the way home.
  tableMissing() {
    this.show(h("div", { class: "notice table-missing", role: "alert" },
      h("p", { text: t("table_missing") }),
      h("button", { class: "btn primary", type: "button", onclick: () => this.goHome(), text: t("home") })));
    tg.backButton(() => this.goHome());
  }

  // Signed in no more: the server's words when it gave any ("You signed out everywhere; ..."), else the expiry's.
  authFailed(message = "") {
    if (this.config && this.config.local_mode) {
      localStorage.removeItem(LOCAL_KEY);
      this.initData = "";
      this.user = null;
      this.showSignIn();
      return;
    }
    this.show(h("div", { class: "notice" }, h("p", { text: message || t("session_expired") })));
  }

  // A page opened outside Telegram while a bot serves it: what Cardroom is, and the way into it through Telegram
  // (the Mini App's t.me link, at this page's table or replay when it names one).
  showOpenInTelegram() {
    const base = this.root.dataset.telegramLink || (this.config.bot_username ? `https://t.me/${this.config.bot_username}` : "");
    const start = this.tableFromUrl() || (this.replayFromUrl() ? `r_${this.replayFromUrl()}` : "");
    const link = base && start ? `${base}?startapp=${encodeURIComponent(start)}` : base;
    this.show(h("section", { class: "screen home outside" },
      h("header", { class: "hero" }, h("div", { class: "hero-top" }, h("h1", { text: t("app_name") }), languageSelect())),
      h("div", { class: "outside-card" },
        h("div", { class: "outside-suits", "aria-hidden": "true" }, h("span", { text: "♠" }), h("span", { class: "red", text: "♥" }),
          h("span", { text: "♣" }), h("span", { class: "red", text: "♦" })),
        h("p", { class: "outside-what", text: t("what_cardroom_is") }),
        link ? h("a", { class: "btn primary open-telegram", href: link, rel: "noopener", text: t("open_in_telegram_btn") }) : null)));
  }

  showSignIn() {
    tg.backButton(null);
    const input = h("input", { id: "signin-name", name: "name", type: "text", maxlength: "32", required: true,
      autocomplete: "nickname", placeholder: t("your_name") });
    const error = h("p", { class: "error", role: "alert" });
    const form = h("form", { class: "signin", onsubmit: async (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      try {
        const data = await this.api.post("/api/local/signin", { name });
        this.initData = data.init_data;
        localStorage.setItem(LOCAL_KEY, data.init_data);
        await this.signedIn();
      } catch (err) {
        error.textContent = err.message || t("error_generic");
      }
    } },
      h("label", { for: "signin-name", text: t("your_name") }),
      input,
      h("button", { class: "btn primary", type: "submit", text: t("sign_in") }),
      error);
    this.show(h("section", { class: "screen home" },
      h("header", { class: "hero" }, h("div", { class: "hero-top" }, h("h1", { text: t("app_name") }), languageSelect()),
        h("p", { class: "hint", text: t("local_intro") })),
      form));
    input.focus();
  }

  async showHome() {
    tg.backButton(null);
    tg.mainButton(null);
    const list = h("div", { class: "my-tables" });
    const name = (this.user && this.user.first_name) || "";
    const [before, after] = t("hello", { name: "\u0001" }).split("\u0001");
    const home = h("section", { class: "screen home" },
      h("header", { class: "hero" },
        h("div", { class: "hero-top" }, h("h1", { text: t("app_name") }), languageSelect(), settingsButton()),
        h("p", { class: "hint hello" }, before, h("bdi", { text: name }), after ?? "")),
      homeTabs(this, h("div", { class: "tab-tables" }, list, gamePicker(this), dailyPanel(this))));
    this.show(home);
    this.renderTables(list); // the list from sign-in at once, then the fresh one
    try {
      const me = await this.api.get("/api/me");
      this.tables = me.tables || [];
    } catch {
      // keep the list from sign-in
    }
    this.renderTables(list);
  }

  renderTables(list) {
    // a table waiting for the caller's move says so, and comes first
    const myTurn = (x) => x.status === "playing" && typeof x.you === "number" && (x.to_act || []).includes(x.you);
    const open = (this.tables || []).filter((x) => x.status === "lobby" || x.status === "playing");
    const all = [...open.filter(myTurn), ...open.filter((x) => !myTurn(x))]; // each part newest first
    // the fresh list drawn again only if it changed: a redraw replaces the buttons under a finger about to tap one
    const drawn = JSON.stringify(all);
    if (list.drawnTables === drawn) return;
    list.drawnTables = drawn;
    clear(list);
    // with tables open, the games' cards drop their one-line descriptions: a player coming back knows the games
    list.parentElement?.classList.toggle("with-tables", all.length > 0);
    if (!all.length) return;
    // one shelf that scrolls sideways, each table a card of two lines: however many are open, every game's Play stays
    // on a phone's first screen (a list of them pushed the third game's below it at 360×640 with three open)
    const item = (x) => h("li", {},
      h("button", { class: `table-link${myTurn(x) ? " my-turn" : ""}`, type: "button", onclick: () => this.openTable(x.id) },
        h("span", { class: "table-link-title" }, h("span", { class: "pname", text: tableTitle(x) }),
          // a guided first game says so: it goes on no record
          x.lesson ? h("span", { class: "badge lesson", text: t("coach_lesson_badge") }) : null),
        h("span", { class: "hint table-link-foot" },
          myTurn(x) ? h("span", { class: "badge turn", text: t("your_turn") }) : `${t(`status_${x.status}`)} · `,
          ...x.seats.flatMap((s, i) => [i ? ", " : "", h("bdi", { text: seatLabel(s) || "–" })]))));
    // no heading above it (the cards say what they are): a phone's first screen is the games' too
    list.append(h("ul", { class: "tables shelf", "aria-label": t("your_tables") }, all.map(item)));
  }

  // A guided first game of ``game``: a started table against AI players, with the coach.
  async startLesson(game, error) {
    try {
      const info = await this.api.post("/api/lessons", { game });
      this.openTable(info.id);
    } catch (err) {
      if (err.status === 401) this.authFailed(err.message);
      else error.textContent = err.message || t("error_generic");
    }
  }
}

const app = new App(document.getElementById("app"));
app.boot();
