// Sergeant Major (3-5-8) and its variants: what the shell asks of this game's client (its table, lesson, rules,
// score sheet, replay).

import { rules } from "./rules.js";
import { sheet } from "./sheet.js";
import { replay } from "./replay.js";

export default {
  id: "sergeant_major",
  table: () => import("./table.js"),
  lesson: () => import("./lesson.js"),
  styles: [new URL("./table.css", import.meta.url).href],
  rules,
  sheet,
  replay,
  showcase: ["3-clubs", "5-hearts", "8-spades"], // home's picture of the game: its 3, 5 and 8
  fair: {
    // redeals after an all-pass Woburn auction renumber the stream: those deals are not checked
    skipDeal: (s) => Boolean(s.bidding),
    // the hand is whole until the kitty joins it
    wholeHand: (s) => ["bid", "trump", "call"].includes(s.phase) && (s.hand || []).length === s.tricks_per_hand,
  },
};
