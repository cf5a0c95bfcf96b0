// Kings in the Corner: what the shell asks of this game's client (its table, lesson, rules, score sheet, replay).

import { t } from "../../shell/i18n.js";
import { rules } from "./rules.js";
import { scoreText, sheet } from "./sheet.js";
import { replay } from "./replay.js";

export default {
  id: "kings_corner",
  table: () => import("./table.js"),
  lesson: () => import("./lesson.js"),
  styles: [new URL("./table.css", import.meta.url).href],
  rules,
  sheet,
  replay,
  showcase: ["K-clubs", "Q-hearts", "J-spades"], // home's picture of the game: a pile built down from a King
  // penalty scoring names its limit in the title
  titleLabel: (value, options) => (value === "penalty" ? t("kc_title_penalty", { n: options.penalty_limit }) : null),
  scoreText: (score, options) => scoreText((options || {}).scoring, score),
};
