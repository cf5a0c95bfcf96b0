// The person's settings in one sheet, opened by Telegram's settings button or the page's own gear (home and the table
// bar, so they are reachable outside Telegram too): the page's language and its sound,
// the same controls the home screen and the table bar hold, one-tap play, and whether the bot sends turn messages
// (kept in the person's account: the bot's /settings shows the same switch). At the bottom, "Sign out everywhere"
// ends every sign-in of the person's, on every device, this one too (a lost or lent phone).

import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { languageSelect } from "./language.js";
import { Api, keepSession } from "./net.js";
import { openSheet } from "./sheet.js";
import { soundButton } from "./sound.js";
import { oneTapButton } from "./one_tap.js";
import * as tg from "./tg.js";

const TURN_MESSAGES = "/api/me/turn_messages";
const SESSIONS = "/api/me/sessions";

// "Sign out everywhere", asked once more in Telegram's own popup; once done the page says how to come back (opened
// from Telegram again, with fresh sign-in data) instead of going on with a sign-in that is over.
function signOutButton(api) {
  const btn = h("button", { class: "btn link danger sign-out-btn", type: "button", text: t("sign_out_everywhere") });
  btn.addEventListener("click", async () => {
    if (!(await tg.confirm(t("sign_out_everywhere_ask"), t("sign_out_everywhere")))) return;
    btn.disabled = true;
    try {
      await api.request("DELETE", SESSIONS);
    } catch (err) {
      btn.disabled = false;
      toast(err.message || t("error_generic"), "error");
      return;
    }
    keepSession(null);
    const done = h("main", { class: "signed-out", role: "status" },
      h("h1", { text: t("app_name") }), h("p", { text: t("signed_out_everywhere") }));
    if (tg.inTelegram) done.append(h("button", { class: "btn primary", type: "button", text: t("close"),
      onclick: () => tg.close() }));
    document.body.replaceChildren(done);
  });
  return btn;
}

// The turn-messages switch: read from the account when the sheet opens, saved there on every tap; a tap the server
// did not take puts the switch back and says why.
function turnMessagesButton(api) {
  const btn = h("button", { class: "switch turn-messages-btn", type: "button", "aria-label": t("turn_messages"),
    disabled: true }, h("span", { class: "switch-knob", "aria-hidden": "true" }));
  const show = (on) => { btn.setAttribute("aria-pressed", String(on)); btn.disabled = false; };
  btn.addEventListener("click", async () => {
    const on = btn.getAttribute("aria-pressed") !== "true";
    show(on);
    btn.disabled = true;
    try {
      show((await api.request("PUT", TURN_MESSAGES, { on })).on);
    } catch (err) {
      show(!on);
      toast(err.message || t("error_generic"), "error");
    }
  });
  api.get(TURN_MESSAGES).then((answer) => show(answer.on), (err) => toast(err.message || t("error_generic"), "error"));
  return btn;
}

// Open the settings sheet (one at a time, like every sheet).
export function openSettings() {
  const language = languageSelect();
  const select = language.querySelector("select");
  select.id = "settings-lang"; // the home screen's picker may be on the page too
  const sound = soundButton();
  sound.id = "settings-sound";
  const oneTap = oneTapButton();
  oneTap.id = "settings-one-tap";
  const turns = turnMessagesButton(new Api(() => tg.initData()));
  turns.id = "settings-turn-messages";
  return openSheet(t("settings"), h("div", { class: "settings-list" },
    h("div", { class: "field settings-row" }, h("label", { for: "settings-lang", text: t("language") }), language),
    h("div", { class: "field settings-row" }, h("label", { for: "settings-sound", text: t("sound") }), sound),
    h("div", { class: "field settings-row" }, h("label", { for: "settings-one-tap", text: t("one_tap_play") }), oneTap),
    h("div", { class: "field settings-row" }, h("label", { for: "settings-turn-messages", text: t("turn_messages") }),
      turns),
    h("p", { class: "hint settings-hint", text: t("turn_messages_hint") }),
    signOutButton(new Api(() => tg.initData()))),
  { cls: "settings-sheet" });
}

const GEAR = '<path fill="currentColor" d="M19.4 13a7.7 7.7 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.5 7.5 0 0 0-1.7-1L15 3.2h-4l-.4 2.7a7.5 7.5 0 0 0-1.7 1l-2.5-1-2 3.5L6.5 11a7.7 7.7 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7.5 7.5 0 0 0 1.7 1l.4 2.7h4l.4-2.7a7.5 7.5 0 0 0 1.7-1l2.5 1 2-3.5zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z" transform="translate(-1 0)"/>';

// The gear that opens the settings sheet.
export function settingsButton() {
  const btn = h("button", { class: "icon-btn settings-btn", type: "button", "aria-label": t("settings"),
    title: t("settings"), "aria-haspopup": "dialog", onclick: () => openSettings() });
  btn.innerHTML = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">${GEAR}</svg>`;
  return btn;
}
