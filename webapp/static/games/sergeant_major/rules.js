// The rules of Sergeant Major in the page: the targets, a hand, up and down, and the variants.

import { para, section } from "../../shell/rules_blocks.js";

export function rules() {
  return [
    para("sm_rules_goal"),
    section("sm_rules_hand_title", para("sm_rules_kitty"), para("sm_rules_play")),
    section("sm_rules_exchange_title", para("sm_rules_exchange")),
    section("sm_rules_variants_title", para("sm_rules_variants")),
  ];
}
