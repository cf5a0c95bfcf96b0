// One-tap play, a setting remembered on this device and on at first: one tap on a card you may play plays it at
// once (a card you may not play is refused with the rule, so legality, not a second tap, prevents a misplay). Turned
// off, each card is confirmed: the tap that picks it, and the second that plays it.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "cardroom.one_tap";

export function isOneTap() {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

// The setting's switch, for the settings sheet.
export function oneTapButton() {
  const btn = h("button", { class: "switch one-tap-btn", type: "button", "aria-label": t("one_tap_play") },
    h("span", { class: "switch-knob", "aria-hidden": "true" }));
  const show = () => btn.setAttribute("aria-pressed", String(isOneTap()));
  btn.addEventListener("click", () => {
    try {
      localStorage.setItem(KEY, isOneTap() ? "off" : "on");
    } catch {
      // private mode: the setting cannot be kept
    }
    show();
  });
  show();
  return btn;
}
