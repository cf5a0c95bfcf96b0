// The rules of Kings in the Corner in the page: building, moving piles, a turn, and winning.

import { para, section } from "../../shell/rules_blocks.js";

export function rules() {
  return [
    para("kc_rules_goal"),
    section("kc_rules_build_title", para("kc_rules_build"), para("kc_rules_move")),
    section("kc_rules_turn_title", para("kc_rules_turn")),
    section("kc_rules_scoring_title", para("kc_rules_scoring")),
  ];
}
