// Telegram WebApp wrapper: theme, viewport, safe areas, buttons, haptics, popups and the client's own controls
// (settings button, closing confirmation, full screen, home screen, write access, active state). Each is used
// only where the client's version has it (isVersionAtLeast) and is a no-op, or the browser's own way, elsewhere.

import { hex, parseColour, readable } from "./contrast.js";

const W = (window.Telegram && window.Telegram.WebApp) || null;

export const inTelegram = Boolean(W && W.initData);

const THEME = {
  bg_color: "--bg", text_color: "--text", hint_color: "--hint", link_color: "--link",
  button_color: "--accent", button_text_color: "--accent-text", secondary_bg_color: "--bg2",
  section_bg_color: "--panel", destructive_text_color: "--danger", accent_text_color: "--accent-strong",
};

function safe(fn) {
  try { return fn(); } catch { return undefined; }
}

// Whether the Telegram client opening the page speaks Bot API ``version`` or later.
export function supports(version) {
  return Boolean(inTelegram && typeof W.isVersionAtLeast === "function" && safe(() => W.isVersionAtLeast(version)));
}

// Telegram's phones, where the Mini App can take the whole screen (the desktop clients keep their window).
function isPhone() {
  return inTelegram && (W.platform === "android" || W.platform === "ios");
}

// Text colours that must read on the page's backgrounds (4.5:1), and the button colour that must carry its label.
const SURFACES = ["--bg", "--bg2", "--panel"];
const READABLE = [["--text", SURFACES], ["--hint", SURFACES], ["--link", SURFACES], ["--danger", SURFACES],
  ["--accent", ["--accent-text"]]];

// A theme's colours are the theme's, but some pairs fall short of 4.5:1 (Telegram's light hint on its grey,
// white on its blue): those colours are moved just far enough to read.
function keepReadable(root) {
  const style = getComputedStyle(root);
  const colour = (name) => parseColour(style.getPropertyValue(name));
  for (const [name, against] of READABLE) {
    const fg = colour(name);
    const bgs = against.map(colour).filter(Boolean);
    if (!fg || !bgs.length) continue;
    const fixed = readable(fg, bgs, 4.5);
    if (fixed !== fg) root.style.setProperty(name, hex(fixed));
  }
}

function applyTheme() {
  const root = document.documentElement;
  const params = (W && W.themeParams) || {};
  if (W && W.colorScheme) root.dataset.scheme = W.colorScheme;
  for (const [key, variable] of Object.entries(THEME)) {
    if (params[key]) root.style.setProperty(variable, params[key]);
    else root.style.removeProperty(variable);
  }
  keepReadable(root);
}

function applyViewport() {
  const root = document.documentElement;
  if (W && W.viewportStableHeight) root.style.setProperty("--vh", `${W.viewportStableHeight}px`);
  const a = (W && W.safeAreaInset) || {};
  const c = (W && W.contentSafeAreaInset) || {};
  for (const side of ["top", "bottom", "left", "right"]) {
    root.style.setProperty(`--tg-safe-${side}`, `${(a[side] || 0) + (c[side] || 0)}px`);
  }
}

export function init() {
  if (inTelegram) document.documentElement.dataset.tg = "1";
  if (!W) return;
  applyTheme();
  applyViewport();
  safe(() => W.ready());
  safe(() => W.expand());
  safe(() => W.disableVerticalSwipes && W.disableVerticalSwipes());
  safe(() => W.onEvent("themeChanged", applyTheme));
  for (const name of ["viewportChanged", "safeAreaChanged", "contentSafeAreaChanged", "fullscreenChanged"]) {
    safe(() => W.onEvent(name, applyViewport));
  }
}

// Close the Mini App (inside Telegram; false elsewhere, where there is nothing to close).
export function close() {
  if (!inTelegram || typeof W.close !== "function") return false;
  safe(() => W.close());
  return true;
}

export function initData() {
  return inTelegram ? W.initData : "";
}

export function startParam() {
  return (inTelegram && W.initDataUnsafe && W.initDataUnsafe.start_param) || null;
}

export function language() {
  return (inTelegram && W.initDataUnsafe && W.initDataUnsafe.user && W.initDataUnsafe.user.language_code) || null;
}

export function haptic(kind) {
  const f = inTelegram && W.HapticFeedback;
  if (!f) return;
  safe(() => {
    if (kind === "select") f.selectionChanged();
    else if (kind === "error") f.notificationOccurred("error");
    else if (kind === "success") f.notificationOccurred("success");
    else if (kind === "turn") f.impactOccurred("medium");
  });
}

let mainHandler = null;

// Show Telegram's MainButton with ``text`` calling ``onClick``; ``null`` hides it. Returns false outside Telegram.
export function mainButton(text, onClick) {
  const b = inTelegram && W.MainButton;
  if (!b) return false;
  safe(() => {
    if (mainHandler) b.offClick(mainHandler);
    mainHandler = null;
    if (text) {
      mainHandler = onClick;
      b.setText(text);
      b.onClick(mainHandler);
      b.show();
      b.enable();
    } else {
      b.hide();
    }
  });
  return true;
}

let backHandler = null;

export function backButton(onClick) {
  const b = inTelegram && W.BackButton;
  if (!b) return false;
  safe(() => {
    if (backHandler) b.offClick(backHandler);
    backHandler = onClick || null;
    if (backHandler) { b.onClick(backHandler); b.show(); } else b.hide();
  });
  return true;
}

export function openLink(url) {
  if (inTelegram && url.startsWith("https://t.me/") && W.openTelegramLink) safe(() => W.openTelegramLink(url));
  else window.open(url, "_blank", "noopener");
}

// Ask ``message`` (a yes/no question) in Telegram's own popup, its yes button ``yes`` (a destructive action) or
// OK; outside Telegram, or on a client before popups (6.2), the browser's confirm(). Resolves true for yes.
export function confirm(message, yes = "") {
  if (!supports("6.2") || typeof W.showPopup !== "function") return Promise.resolve(window.confirm(message));
  return new Promise((resolve) => {
    const buttons = yes ? [{ id: "yes", type: "destructive", text: yes.slice(0, 64) }, { id: "no", type: "cancel" }]
      : [{ id: "yes", type: "ok" }, { id: "no", type: "cancel" }];
    try {
      W.showPopup({ message: message.slice(0, 256), buttons }, (id) => resolve(id === "yes"));
    } catch {
      resolve(window.confirm(message)); // a popup already open, say
    }
  });
}

let settingsHandler = null;

// Telegram's settings button (in the Mini App's menu) calling ``onClick``; null hides it. False where there is none.
export function settingsButton(onClick) {
  if (!supports("6.10") || !W.SettingsButton) return false;
  safe(() => {
    if (settingsHandler) W.offEvent("settingsButtonClicked", settingsHandler);
    settingsHandler = onClick || null;
    if (settingsHandler) {
      W.onEvent("settingsButtonClicked", settingsHandler);
      W.SettingsButton.show();
    } else {
      W.SettingsButton.hide();
    }
  });
  return true;
}

// Telegram asks before closing the Mini App while ``on`` (a game is being played), and closes at once otherwise.
export function closingConfirmation(on) {
  if (!supports("6.2")) return;
  if (Boolean(W.isClosingConfirmationEnabled) === Boolean(on)) return;
  safe(() => (on ? W.enableClosingConfirmation() : W.disableClosingConfirmation()));
}

// The whole screen for the table on Telegram's phones (8.0); the safe areas keep clear of Telegram's controls.
export function fullscreen() {
  if (!supports("8.0") || !isPhone() || W.isFullscreen) return;
  safe(() => W.requestFullscreen());
}

const HOME_SCREEN_KEY = "cardroom.home_screen_offered";

// After a finished game, once per device: Telegram's own offer to put the Mini App on the home screen, when the
// client can (8.0) and says it is not there yet.
export function offerHomeScreen() {
  if (!supports("8.0") || typeof W.checkHomeScreenStatus !== "function") return;
  try {
    if (localStorage.getItem(HOME_SCREEN_KEY)) return;
    localStorage.setItem(HOME_SCREEN_KEY, "1");
  } catch {
    return; // nowhere to remember the offer: never repeat it
  }
  safe(() => W.checkHomeScreenStatus((status) => {
    if (status === "missed") safe(() => W.addToHomeScreen());
  }));
}

let writeAccessAsked = false;

function launchUser() {
  return (inTelegram && W.initDataUnsafe && W.initDataUnsafe.user) || null;
}

// Whether this page may still ask Telegram for write access: a client that has the request (6.9), a person whose
// launch data does not already say the bot may write to them (``allows_write_to_pm``), not asked on this page yet.
export function mayAskWriteAccess() {
  const user = launchUser();
  return Boolean(user && !user.allows_write_to_pm && !writeAccessAsked && supports("6.9"));
}

// The Telegram user id of the person the page was opened for, or null outside Telegram.
export function userId() {
  const user = launchUser();
  return user && user.id !== undefined ? String(user.id) : null;
}

// A person the bot cannot write to yet is asked in the page, once, with Telegram's own request (6.9), so their
// turn messages can reach them; ``done(allowed)`` hears the answer (false when cancelled).
export function askWriteAccess(done = null) {
  if (!mayAskWriteAccess()) return false;
  const user = launchUser();
  writeAccessAsked = true;
  const asked = safe(() => {
    W.requestWriteAccess((allowed) => {
      if (allowed) user.allows_write_to_pm = true;
      if (done) done(allowed);
    });
    return true;
  });
  return Boolean(asked);
}

// Whether the Mini App is in front of the person (Telegram puts it aside for another chat or app: 8.0).
export function isActive() {
  return !(inTelegram && W.isActive === false);
}

// ``cb(active)`` on each activated/deactivated from Telegram; returns the function that stops listening.
export function onActiveChange(cb) {
  if (!inTelegram || typeof W.onEvent !== "function") return () => {};
  const on = () => cb(true);
  const off = () => cb(false);
  safe(() => { W.onEvent("activated", on); W.onEvent("deactivated", off); });
  return () => safe(() => { W.offEvent("activated", on); W.offEvent("deactivated", off); });
}
