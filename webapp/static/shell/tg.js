// Telegram WebApp wrapper: theme, viewport, safe areas, buttons and haptics; every call is a no-op outside Telegram.

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
  for (const name of ["viewportChanged", "safeAreaChanged", "contentSafeAreaChanged"]) {
    safe(() => W.onEvent(name, applyViewport));
  }
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
