// The Sergeant Major table's bar at the top: the hand (of how many), the trick in play, the trumps or the dealer's
// call, and the score sheet's button.

import { h, clear } from "../../shell/dom.js";
import { t } from "../../shell/i18n.js";
import { suitIcon, suitName } from "../../shell/cards.js";
import { scoreSheetButton } from "../../shell/scoresheet.js";
import { DECK, SUITS } from "./parts.js";

// Fill ``bar`` for the view's state ``s``; ``showScores`` opens the score sheet.
export function renderScorebar(bar, s, showScores) {
  const hand = s.last_hand ? t("sm_hand_of", { n: s.hand_no, of: s.last_hand }) : t("hand_n", { n: s.hand_no });
  const playing = s.phase === "play" || s.phase === "over";
  const trick = Math.min(s.trick_no + (s.trick.length ? 1 : 0), s.tricks_per_hand) || 1;
  clear(bar).append(
    h("span", { class: "hand-no", text: hand }),
    h("span", { class: "trick-no", text: playing ? t("trick_n", { n: trick, of: s.tricks_per_hand }) : "" }),
    trumpChip(s),
    scoreSheetButton(showScores));
}

// The trumps named this hand, or the dealer's call (misère, no trump), or a dash before either.
function trumpChip(s) {
  const parts = [];
  if (s.call === "misere") parts.push(h("span", { class: "sm-call-name", text: t("sm_call_misere") }));
  if (s.call === "no_trump") parts.push(h("span", { class: "sm-call-name", text: t("sm_call_no_trump") }));
  if (s.trump) {
    parts.push(suitIcon(s.trump, DECK, 16), h("span", { text: suitName(s.trump, DECK) }));
  }
  if (!parts.length) {
    return h("span", { class: "sm-trump none" }, h("span", { class: "label", text: t("sm_trumps") }), h("span", { text: "–" }));
  }
  return h("span", { class: `sm-trump${s.trump ? ` suit-${DECK}-${s.trump}` : ""}`, dataset: { trump: s.trump || s.call || "" } },
    h("span", { class: "label", text: s.call && !SUITS.includes(s.call) ? t("sm_call") : t("sm_trumps") }), ...parts);
}
