// Today's deal on home: per game one button that opens (or resumes) the person's table for the day's deal; once
// played, their share of the field, the day's standings and a result line to share (no card in it). Everything
// shown comes from /api/daily (engine.service.daily): the page decides nothing.

import { h, clear, toast } from "./dom.js";
import { t } from "./i18n.js";
import { gameTitle } from "./titles.js";
import { openSheet } from "./sheet.js";
import * as tg from "./tg.js";

// The result line shared to a chat: Telegram's shareMessage of the line the bot prepared (POST .../share), else
// Telegram's share link, else (outside Telegram) the clipboard.
async function shareLine(app, entry) {
  let prepared = null;
  try {
    prepared = await app.api.post(`/api/daily/${entry.game}/share`, {});
  } catch {
    prepared = null;
  }
  const line = (prepared && prepared.line) || entry.status.line;
  const w = window.Telegram && window.Telegram.WebApp;
  if (prepared && prepared.id && w && w.initData && w.shareMessage
    && (!w.isVersionAtLeast || w.isVersionAtLeast("8.0"))) {
    try {
      w.shareMessage(prepared.id);
      return;
    } catch {
      // an older client: its share link below
    }
  }
  if (tg.initData()) {
    tg.openLink(`https://t.me/share/url?url=${encodeURIComponent(location.origin)}&text=${encodeURIComponent(line)}`);
    return;
  }
  try {
    await navigator.clipboard.writeText(line);
    toast(t("daily_copied"));
  } catch {
    toast(line);
  }
}

async function showStandings(app, game) {
  let board;
  try {
    board = await app.api.get(`/api/daily/${game}/standings`);
  } catch (err) {
    toast(err.message || t("error_generic"), "error");
    return;
  }
  const rows = board.standings.map((r) => h("li", { class: r.user_id === app.user.id ? "mine" : "" },
    `${r.place}. `, h("bdi", { text: r.name }), ` — ${r.percent}%`));
  openSheet(`${t("daily_title")} · ${gameTitle(game)}`, [
    h("p", { class: "hint", text: t("daily_hint") }),
    h("ol", { class: "daily-standings" }, rows),
    board.line ? h("p", { class: "daily-line", text: board.line }) : null,
  ], { cls: "daily-sheet" });
}

// Standings and Share for a deal the person has played.
function doneActions(app, entry) {
  return [
    h("button", { class: "btn daily-standings-btn", type: "button", text: t("daily_standings"),
      onclick: () => showStandings(app, entry.game) }),
    h("button", { class: "btn daily-share", type: "button", text: t("daily_share"),
      onclick: () => shareLine(app, entry) }),
  ];
}

// A table of today's deal stopped after the hand it scores reads as the person's result, not as a cancelled table:
// ``notice`` (the table's ending, first paragraph its words) is rewritten once /api/daily says the deal is played.
// The server keeps the result just after the table ends, so the page asks again a few times before giving up.
export async function dailyOver(app, tableId, notice) {
  let entry = null;
  for (let tries = 0; !entry && tries < 10 && notice.isConnected; tries += 1) {
    if (tries) await new Promise((resolve) => setTimeout(resolve, 300));
    try {
      const today = await app.api.get("/api/daily");
      entry = today.games.find((g) => g.status.table_id === tableId && g.status.state === "finished") || null;
    } catch {
      return;
    }
  }
  if (!entry || !notice.isConnected) return;
  const words = notice.querySelector("p");
  if (words) words.textContent = t("daily_done", { percent: `${entry.status.percent}%` });
  notice.classList.add("daily-over");
  notice.append(h("div", { class: "daily-over-actions" }, ...doneActions(app, entry)));
}

function row(app, entry) {
  const s = entry.status;
  const open = async () => {
    try {
      const started = await app.api.post(`/api/daily/${entry.game}`, {});
      app.openTable(started.table_id);
    } catch (err) {
      toast(err.message || t("error_generic"), "error");
    }
  };
  const title = h("span", { class: "pname", text: gameTitle(entry.game) });
  if (s.state !== "finished") {
    return h("li", { class: "daily-game" }, title,
      h("button", { class: "btn primary daily-play", type: "button", onclick: open,
        text: s.state === "playing" ? t("daily_resume") : t("daily_play") }));
  }
  return h("li", { class: "daily-game done" }, title, h("span", { class: "daily-percent", text: `${s.percent}%` }),
    ...doneActions(app, entry));
}

// The panel, filled once /api/daily answers (empty, and out of the way, if it does not).
export function dailyPanel(app) {
  const list = h("ul", { class: "daily-games" });
  const panel = h("section", { class: "daily", "aria-labelledby": "daily-title" },
    h("h2", { id: "daily-title", text: t("daily_title") }), list);
  app.api.get("/api/daily").then((today) => {
    clear(list);
    list.append(...today.games.map((entry) => row(app, entry)));
  }).catch(() => panel.remove());
  return panel;
}
