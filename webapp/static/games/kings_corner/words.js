// What the Kings in the Corner table says in words: the status line, the hint for what to do next, the result
// line and the notice a hand's end or a collected corner leaves under the board.

import { t, tNames } from "../../shell/i18n.js";
import { DECK, cardName, spaceName } from "./parts.js";

// The game's result in one line: who went out and won, who share the win, or who won.
export function resultLine(s, you, name) {
  if (s.options.scoring === "first_out" && s.went_out !== null && !s.blocked) {
    return s.went_out === you ? t("kc_you_went_out") : t("kc_went_out_won", { name: name(s.went_out) });
  }
  if (s.winners.length > 1) return tNames("kc_share_win", s.winners.map((seat) => name(seat)));
  return s.winners.includes(you) ? t("you_won") : t("winner_is", { name: s.winners.map((seat) => name(seat)).join(", ") });
}

// The status line: the result once over, else whose turn it is (``turn``: the seat on show while moves replay),
// or on your turn the card you drew and must play.
export function statusLine(s, { you, mine, over, turn }, name) {
  if (over) return resultLine(s, you, name);
  if (!mine) return t("to_play", { name: name(turn) });
  if (s.must_play) return t("kc_must_play", { card: cardName(s.must_play, DECK) });
  return t("your_turn");
}

// On your turn, what to do next: with a card or a pile picked (``sel``), where it may go (``placeable``: somewhere),
// else why the turn cannot end, or how to begin.
export function hintLine(s, moves, sel, placeable) {
  if (sel && sel.card) {
    return placeable ? t("kc_hint_card", { card: cardName(sel.card, DECK) })
      : t("kc_hint_no_place", { card: cardName(sel.card, DECK) });
  }
  if (sel && sel.space) return t("kc_hint_pile", { space: spaceName(sel.space) });
  if (!moves.end && !s.must_play) return t("kc_reason_king");
  return moves.byCard.size || moves.byPile.size ? t("kc_hint_start") : t("kc_hint_nothing");
}

// The notice an event leaves under the board: a corner collected or a hand over; null once your turn has ended;
// undefined for an event that leaves it as it is.
export function noticeOf(e, you, name) {
  if (e.type === "corner_collected") return t("kc_note_collected", { name: name(e.seat), space: spaceName(e.corner) });
  if (e.type === "hand_over") {
    return e.went_out !== null ? t("kc_note_hand_out", { n: e.hand_no, name: name(e.went_out) })
      : t("kc_note_hand_blocked", { n: e.hand_no });
  }
  if (e.type === "turn_ended" && e.seat === you) return null;
  return undefined;
}
