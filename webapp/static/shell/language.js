// Which language the page is shown in, and the picker that changes it.
// The server renders the page in one language (?lang=, else its cookie, else Accept-Language). Here the page
// settles on the language the player wants: a choice made in the picker (remembered in localStorage), else in
// Telegram the user's language_code. When that differs from the page's, the page reloads once with ?lang=,
// and the cookie lets the server render it right the next time. Unsupported languages are shown in English.
// Once signed in, the person's own choice wins: the one they made in the bot's /language or in this picker on
// any device (``language`` in /api/me), and a choice in the picker is saved there too, so the bot writes in it.

import { h } from "./dom.js";
import { t, lang, languages } from "./i18n.js";
import * as tg from "./tg.js";

const CHOICE_KEY = "cardroom.lang";
const COOKIE = "cardroom_lang";
const YEAR = 365 * 24 * 3600;
// drawn, not an emoji: not every phone or browser has an emoji font
const GLOBE = '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="1.7">' +
  '<circle cx="12" cy="12" r="9.2"/><path d="M2.8 12h18.4M12 2.8c2.6 2.7 3.9 5.8 3.9 9.2s-1.3 6.5-3.9 9.2' +
  'M12 2.8C9.4 5.5 8.1 8.6 8.1 12s1.3 6.5 3.9 9.2"/></svg>';

// The supported language for a tag like "ru-RU" or "pt-br": its base if the page has it, else English.
export function negotiate(tag) {
  const base = String(tag || "").trim().replace("_", "-").split("-")[0].toLowerCase();
  return Object.prototype.hasOwnProperty.call(languages, base) ? base : "en";
}

function storedChoice() {
  try {
    const value = localStorage.getItem(CHOICE_KEY);
    return value ? negotiate(value) : null;
  } catch {
    return null;
  }
}

function remember(code) {
  const secure = location.protocol === "https:" ? "; SameSite=None; Secure" : "; SameSite=Lax";
  document.cookie = `${COOKIE}=${code}; path=/; max-age=${YEAR}${secure}`;
}

function urlWithLanguage(code) {
  const url = new URL(location.href);
  url.searchParams.set("lang", code);
  return url.toString(); // the hash stays: Telegram keeps its launch data there
}

// The language the player wants, or null when the page's own (the browser's, in local mode) is right.
export function wantedLanguage() {
  const choice = storedChoice();
  if (choice) return choice;
  const telegram = tg.language();
  return telegram ? negotiate(telegram) : null;
}

// Reload once with ?lang= if the page is not in the wanted language; true while that reload is under way.
// An explicit ?lang= always wins, so the reloaded page never reloads again.
export function settleLanguage() {
  if (new URL(location.href).searchParams.has("lang")) return false;
  const wanted = wantedLanguage();
  if (!wanted || wanted === lang) return false;
  remember(wanted);
  location.replace(urlWithLanguage(wanted));
  return true;
}

function keep(code) {
  try {
    localStorage.setItem(CHOICE_KEY, code);
  } catch {
    // private mode: the ?lang= and the cookie still carry the choice
  }
  remember(code);
}

let saveChoice = null; // how a choice reaches the person's account, once signed in
const SAVE_WAIT_MS = 2000; // a reload does not wait longer for the save: the choice is kept on this device anyway

// Signed in: ``save(code)`` stores a choice made in the picker as the person's language, for the bot too.
export function saveChoicesWith(save) {
  saveChoice = save;
}

// Signed in: the language the person chose (null: none) wins over this device's; true while the page reloads in it.
export function followAccount(chosen) {
  if (!chosen) return false;
  const wanted = negotiate(chosen);
  keep(wanted);
  if (wanted === lang) return false;
  location.replace(urlWithLanguage(wanted));
  return true;
}

// Show the page in ``code`` from now on: remembered here, by the server and in the person's account, the page
// reloaded in it.
export async function chooseLanguage(code) {
  const chosen = negotiate(code);
  keep(chosen);
  if (saveChoice) {
    try {
      await Promise.race([saveChoice(chosen), new Promise((done) => setTimeout(done, SAVE_WAIT_MS))]);
    } catch {
      // not saved (offline, say): this device keeps the choice, and the account keeps the last one it had
    }
  }
  if (chosen !== lang || !new URL(location.href).searchParams.has("lang")) location.replace(urlWithLanguage(chosen));
}

// The home screen's picker: a labelled select of every language, each named in its own words.
export function languageSelect() {
  const select = h("select", { id: "lang-select", class: "lang-select", "aria-label": t("language"),
    onchange: (ev) => chooseLanguage(ev.target.value) },
  Object.entries(languages).map(([code, name]) => h("option", { value: code, lang: code, selected: code === lang,
    text: name })));
  const icon = h("span", { class: "lang-icon", "aria-hidden": "true" });
  icon.innerHTML = GLOBE;
  return h("div", { class: "lang-picker" }, icon, select);
}

