// The person's settings in one sheet, opened by Telegram's settings button: the page's language and its sound,
// the same controls the home screen and the table bar hold, and one-tap play.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { languageSelect } from "./language.js";
import { openSheet } from "./sheet.js";
import { soundButton } from "./sound.js";
import { oneTapButton } from "./one_tap.js";

// Open the settings sheet (one at a time, like every sheet).
export function openSettings() {
  const language = languageSelect();
  const select = language.querySelector("select");
  select.id = "settings-lang"; // the home screen's picker may be on the page too
  const sound = soundButton();
  sound.id = "settings-sound";
  const oneTap = oneTapButton();
  oneTap.id = "settings-one-tap";
  return openSheet(t("settings"), h("div", { class: "settings-list" },
    h("div", { class: "field settings-row" }, h("label", { for: "settings-lang", text: t("language") }), language),
    h("div", { class: "field settings-row" }, h("label", { for: "settings-sound", text: t("sound") }), sound),
    h("div", { class: "field settings-row" }, h("label", { for: "settings-one-tap", text: t("one_tap_play") }), oneTap)),
  { cls: "settings-sheet" });
}
