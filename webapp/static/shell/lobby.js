// The lobby: who sits where, the table's options, Add AI, Start, and a link that lets a friend take a seat.

import { h, clear, toast } from "./dom.js";
import { isolate, t, tOr } from "./i18n.js";
import { cardName, parseCard } from "./cards.js";
import * as tg from "./tg.js";
import { optionHelpEl, rulesButton } from "./rules.js";

// A link that opens the Mini App at a table (or, with kind "replay", at its replay): in Telegram the app's direct
// link t.me/<bot>/<short name>?startapp=<table id> (r_<table id> for a replay), as the bot's own links are built;
// elsewhere this page with ?table= or ?replay=.
export function shareLink(tableId, config, kind = "table") {
  const bot = config && config.bot_username;
  const short = config && config.miniapp_short_name;
  const start = `${kind === "replay" ? "r_" : ""}${encodeURIComponent(tableId)}`;
  if (tg.inTelegram && bot) return `https://t.me/${bot}${short ? `/${short}` : ""}?startapp=${start}`;
  return `${location.origin}${location.pathname}?${kind}=${encodeURIComponent(tableId)}`;
}

// An AI player's name with "(AI)" in the page's language ("Ada (ИИ)").
export function aiName(name) {
  return String(name || "").replace(/\s*\(AI\)$/, ` (${t("ai")})`);
}

export function optionLabel(name, fallback) {
  return tOr(`setting_${name}`, fallback || name);
}

// A setting's value in words: a seat as its player's name when ``seats`` (the table's) knows one, else "Seat 2";
// a card as the page names it ("2 of Clubs", "Двойка треф"); any other value by its own string.
export function valueLabel(name, value, seats = []) {
  const seat = /^seat:(\d+)$/.exec(String(value));
  if (seat) {
    const taken = seats.find((s) => s.seat === Number(seat[1]) && s.name);
    return taken ? isolate(aiName(taken.name)) : t("seat_n", { n: Number(seat[1]) + 1 }); // an <option> has no <bdi>
  }
  if (name === "removed_card" && parseCard(value)) {
    const card = String(cardName(value, "french")); // an option of its own, so a capital as its neighbours have
    return card.charAt(0).toLocaleUpperCase() + card.slice(1);
  }
  return tOr(`value_${name}_${value}`, value);
}

// Whether a setting applies under the table's variant (the server lists ``applies_to`` for those that do not always).
export function applies(setting, options) {
  return !setting.applies_to || setting.applies_to.includes(String(options.variant));
}

// A change of one setting, with the settings it makes inapplicable (a new variant's) put back to their defaults,
// which is all the server accepts for them.
function changesFor(settings, options, name, value) {
  const changes = { [name]: value };
  const next = { ...options, ...changes };
  for (const s of settings) {
    if (!applies(s, next) && next[s.name] !== undefined && next[s.name] !== s.default) changes[s.name] = s.default;
  }
  return changes;
}

// A setting's presets with the table's own value among them: a table made with a value the presets lack (the bot's
// ``/new <game> target=3``) shows that value, in order among numbers, instead of whichever preset comes first.
function choicesWith(choices, value) {
  if (value === undefined || value === null || choices.some((c) => String(c) === String(value))) return choices;
  const numbers = typeof value === "number" && choices.every((c) => typeof c === "number");
  return numbers ? [...choices, value].sort((a, b) => a - b) : [value, ...choices];
}

// One option of the lobby: its value, or a picker for the host; ``seats`` names the seats a value may point at.
function optionRow(setting, value, { editable, ctx, seats, change = (name, v) => ({ [name]: v }) }) {
  const label = optionLabel(setting.name, setting.label);
  if (!editable || !setting.choices || !setting.choices.length) {
    return h("li", {}, h("span", { class: "label", text: label }), h("span", { class: "value", text: valueLabel(setting.name, value, seats) }),
      optionHelpEl(setting.name));
  }
  const choices = choicesWith(setting.choices, value);
  const select = h("select", { name: setting.name, "aria-label": label, onchange: (ev) => {
    const raw = ev.target.value;
    const choice = choices.find((c) => String(c) === raw);
    ctx.op("options", { changes: change(setting.name, choice === undefined ? raw : choice) });
  } }, choices.map((c) => h("option", { value: String(c), selected: String(c) === String(value),
    text: valueLabel(setting.name, c, seats) })));
  return h("li", {}, h("label", { class: "label", text: label }), select, optionHelpEl(setting.name));
}

const WEB_APP = () => (window.Telegram && window.Telegram.WebApp) || null;

// The link copied; where the clipboard is refused, the link itself in the toast (over ``over``, the button tapped).
async function copyLink(link, said = "link_copied", over = null) {
  try {
    await navigator.clipboard.writeText(link);
    toast(t(said), "info", over);
  } catch {
    toast(link, "info", over);
  }
}

// The t.me link of the table when the server could not give one: the page's own Mini App link with the table.
function fallbackLink(tableId, ctx) {
  const base = document.getElementById("app")?.dataset.telegramLink;
  return base ? `${base}?startapp=${encodeURIComponent(tableId)}` : shareLink(tableId, ctx.config);
}

// Without Telegram's own sharing: the link to a chat picker in Telegram, the system's share sheet, or the clipboard.
async function shareTableLink(link, said = "", over = null) {
  const w = WEB_APP();
  if (w && w.initData && w.openTelegramLink && link.startsWith("https://t.me/")) {
    try {
      w.openTelegramLink(`https://t.me/share/url?url=${encodeURIComponent(link)}&text=${encodeURIComponent(t("invite_text"))}`);
      toast(said ? `${t(said)} ${t("invite_pick_chat")}` : t("invite_pick_chat"), "info", over);
      return;
    } catch {
      // on to the system's share sheet
    }
  }
  if (navigator.share) {
    try {
      await navigator.share({ url: link, text: t("invite_text") });
      toast(t("invite_shared"), "info", over);
      return;
    } catch (err) {
      if (err && err.name === "AbortError") return; // the person closed the share sheet
    }
  }
  await copyLink(link, said ? "invite_link_copied_instead" : "link_copied", over);
}

// Invite: Telegram's own share of a prepared invitation (Bot API 8.0), else the table's link; local play shares
// this page's own table address.
export async function inviteFriend(tableId, ctx, button) {
  if (ctx.config && ctx.config.local_mode) {
    await shareTableLink(shareLink(tableId, ctx.config), "", button);
    return;
  }
  if (button) button.disabled = true;
  let prepared = null;
  try {
    prepared = await ctx.invite();
  } catch {
    prepared = null;
  } finally {
    if (button) button.disabled = false;
  }
  const link = (prepared && prepared.link) || fallbackLink(tableId, ctx);
  const w = WEB_APP();
  const canShare = Boolean(prepared && prepared.id && w && w.initData && w.shareMessage
    && (!w.isVersionAtLeast || w.isVersionAtLeast("8.0")));
  if (!canShare) {
    await shareTableLink(link, "", button);
    return;
  }
  try {
    w.shareMessage(prepared.id, (sent) => {
      if (sent) toast(t("invite_sent"), "info", button);
      else shareTableLink(link, "invite_not_sent", button);
    });
  } catch {
    await shareTableLink(link, "invite_not_sent", button);
  }
}

export function renderLobby(container, view, ctx) {
  const table = view.table;
  const seated = typeof view.you === "number";
  const isHost = seated && table.host_seat === view.you;
  const free = table.seats.filter((s) => s.handle === null && !s.is_ai).length;
  const game = ctx.games.find((g) => g.name === table.game);
  const settings = game ? game.settings : Object.keys(table.options).map((name) => ({ name, label: name, choices: [] }));
  const link = shareLink(table.id, ctx.config);
  // games for 2 to 4 players: the host picks the table size here too
  const sizes = game && game.min_players !== game.max_players ? [{ name: "players", choices: Array.from(
    { length: game.max_players - game.min_players + 1 }, (_, i) => game.min_players + i) }] : [];

  const seats = h("ol", { class: "seats" }, table.seats.map((s) => {
    let who;
    if (s.is_ai) {
      const name = aiName(s.name);
      who = h("span", {}, h("span", { class: "pname", dir: "auto", text: name }),
        name.includes(t("ai")) ? null : h("span", { class: "badge ai", text: t("ai") }));
    }
    else if (s.handle !== null) {
      who = h("span", {}, h("span", { class: "pname", dir: "auto", text: s.name }),
        s.seat === table.host_seat ? h("span", { class: "badge", text: t("host") }) : null,
        s.seat === view.you ? h("span", { class: "badge you", text: t("you") }) : null);
    } else who = h("span", { class: "empty", text: t("empty_seat") });
    return h("li", { class: s.is_ai ? "ai" : s.handle !== null ? "taken" : "free", dataset: { seat: String(s.seat) } }, who);
  }));

  const buttons = h("div", { class: "lobby-actions" });
  if (!seated && free > 0) {
    buttons.append(h("button", { class: "btn primary join-btn", type: "button", text: t("take_seat"),
      onclick: () => ctx.op("join") }));
  }
  if (isHost) {
    if (free > 0) {
      buttons.append(h("button", { class: "btn add-ai-btn", type: "button", text: t("add_ai"), onclick: () => ctx.op("add_ai") }));
    }
    buttons.append(h("button", { class: "btn primary start-btn", type: "button",
      text: free > 0 ? t("start_with_ai") : t("start"), onclick: () => ctx.op("start") }));
    buttons.append(h("button", { class: "btn link danger", type: "button", text: t("cancel_table"),
      onclick: async () => { if (await tg.confirm(t("cancel_confirm"), t("cancel_table"))) ctx.op("cancel"); } }));
  } else if (seated) {
    buttons.append(h("p", { class: "hint", text: t("waiting_for_host") }));
    buttons.append(h("button", { class: "btn link", type: "button", text: t("leave_seat"), onclick: () => ctx.op("leave") }));
  }

  const local = Boolean(ctx.config && ctx.config.local_mode);
  const invite = local
    ? [h("div", { class: "share" },
      h("input", { class: "share-link", type: "text", readonly: true, value: link, "aria-label": t("invite"),
        onfocus: (ev) => ev.target.select() }),
      h("button", { class: "btn small", type: "button", text: t("copy"), onclick: () => copyLink(link) }))]
    : [h("button", { class: "btn invite-btn", type: "button", text: t("invite"), onclick: (ev) => inviteFriend(table.id, ctx, ev.target) })];
  // with seats to fill, inviting comes right under them (before Add AI and Start), not below every option; in
  // Telegram the button says what a heading would
  const inviteSection = [local ? h("h3", { text: t("invite") }) : null, ...invite,
    h("p", { class: "hint", text: t("invite_explained") })];

  clear(container).append(h("div", { class: "lobby" },
    h("div", { class: "lobby-head" }, h("h2", { text: t("lobby") }),
      rulesButton(table.game, () => table.options, { label: true })),
    h("p", { class: "hint", text: t("seats_n", { n: table.size, free }) }),
    seats,
    ...(free > 0 ? inviteSection : []),
    buttons,
    h("h3", { text: t("options") }),
    h("ul", { class: "options" },
      sizes.map((s) => optionRow(s, table.size, { editable: isHost, ctx, seats: table.seats })),
      settings.filter((s) => applies(s, table.options)).map((s) => optionRow(s, table.options[s.name] ?? s.value ?? s.default,
        { editable: isHost, ctx, seats: table.seats,
          change: (name, value) => changesFor(settings, table.options, name, value) })),
      h("li", {}, h("span", { class: "label", text: t("setting_timer") }),
        h("span", { class: "value", text: valueLabel("timer", table.timer) }))),
    ...(free > 0 ? [] : inviteSection)));
}
