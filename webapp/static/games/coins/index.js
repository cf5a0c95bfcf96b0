// Coins by Mark Steere: what the shell asks of this game's client (its table, lesson, rules, score sheet, replay).

import { t, tn } from "../../shell/i18n.js";
import { rules } from "./rules.js";
import { sheet } from "./sheet.js";
import { replay } from "./replay.js";

export default {
  id: "coins",
  table: () => import("./table.js"),
  lesson: () => import("./lesson.js"),
  styles: [new URL("./table.css", import.meta.url).href],
  rules,
  sheet,
  replay,
  showcase: ["K-cups", "A-coins", "N-swords"], // home's picture of the game: three suits of the cycle
  fair: {
    // the hand is whole until the first card of the first trick
    wholeHand: (s, size) => s.phase === "play" && s.trick_no <= 1 && !s.trick.length && (s.hand || []).length === size,
  },
  headlineInTitle: false, // the target shows on the table's score bar instead
  headlineLabel: (value) => t("first_to", { n: value }),
  scoreText: (score) => tn("points_n", score),
};
