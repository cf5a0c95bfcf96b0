// The game's end: the sheet of standings (the winner, each place and score, rating changes, the fair deal folded
// away) and what comes next (play again, the rematch with friends, a real game after a lesson). Built with the
// table screen it belongs to, whose seats, renderer and deals it reads.

import { h, toast } from "./dom.js";
import { t, tn } from "./i18n.js";
import { changeText, placeLabel, ratingText } from "./history.js";
import * as tg from "./tg.js";
import { fairFold } from "./fair.js";
import { facts as factsOf } from "./games.js";

// A sentence about people (``param`` one name, or "names" for several): each name in its own <bdi>.
function withNames(key, param, names) {
  const marks = names.map((_, i) => `\u0001${i}\u0002`);
  const text = t(key, { [param]: param === "names" ? marks.join(", ") : marks[0] || "" });
  return text.split(/\u0001(\d+)\u0002/).map((part, i) => (i % 2 ? h("bdi", { text: String(names[Number(part)]) }) : part));
}

// A trophy drawn in the page (no emoji font needed).
function trophy() {
  const span = h("span", { class: "go-icon", "aria-hidden": "true" });
  span.innerHTML = '<svg viewBox="0 0 24 24" width="44" height="44"><path d="M7 2h10v2h4v3a5 5 0 01-4.6 5A5 5 0 0113 15.9V19h3v3H8v-3h3v-3.1A5 5 0 017.6 12 5 5 0 013 7V4h4zm0 4H5v1a3 3 0 002 2.8zm10 0v3.8A3 3 0 0019 7V6z" fill="#e3a81b" stroke="#9a6b00" stroke-width=".6"/></svg>';
  return span;
}

// A few pieces of confetti over a win (the stylesheet keeps them still when motion is reduced).
function confetti() {
  const colours = ["#e3a81b", "#e5534b", "#3e9bd6", "#5cb85c", "#b36ae2"];
  return h("div", { class: "confetti", "aria-hidden": "true" }, Array.from({ length: 18 }, (_, i) => h("i", {
    style: `--x:${(i * 37) % 100}%;--d:${(i % 6) * 0.08}s;--r:${(i * 47) % 360}deg;background:${colours[i % colours.length]}` })));
}

// A person's rating after the game over its change, as the server gives them: "1392?" over "−108" (a real minus
// sign), "1586?" over "+86"; both in words for a screen reader.
function ratingChange({ after, change, provisional }) {
  const rating = ratingText(after, provisional);
  const text = changeText(change);
  return h("span", { class: "prate", role: "img", "aria-label": t("rating_change", { rating, change: text }) },
    h("span", { class: "prating", "aria-hidden": "true", text: rating }),
    h("span", { class: `pdelta${change > 0 ? " up" : change < 0 ? " down" : ""}`, "aria-hidden": "true", text }));
}

export class GameOver {
  constructor(screen) {
    this.screen = screen;
    this.ratings = null;
  }

  show(view) {
    const table = view.table;
    const result = table.result || { scores: [], placements: [], winners: [] };
    const order = table.seats.map((s) => s.seat).sort((a, b) => (result.placements[a] || 9) - (result.placements[b] || 9));
    const places = order.map((seat) => result.placements[seat]);
    const target = view.state && view.state.target_score;
    const me = view.you;
    const seated = me !== null && me !== undefined;
    const won = seated && (result.winners || []).includes(me);
    const close = () => sheet.remove();
    const placements = h("ol", { class: "placements" },
      order.map((seat) => h("li", { class: `${result.placements[seat] === 1 ? "first" : ""}${seat === me ? " you" : ""}`.trim(),
        dataset: { seat: String(seat) } },
        h("span", { class: "place", "aria-label": t("place_n", { n: result.placements[seat] || "" }),
          text: result.placements[seat] ? placeLabel(result.placements[seat], places) : "" }),
        h("span", { class: "pname", dir: "auto", text: this.screen.seatName(seat) }),
        h("span", { class: "pscore", text: this.screen.renderer && this.screen.renderer.scoreText
          ? this.screen.renderer.scoreText(seat, result.scores[seat] ?? 0) : tn("points_n", result.scores[seat] ?? 0) }))));
    const fair = fairFold(view, this.screen.deals, (seat) => this.screen.seatName(seat));
    const sheet = h("div", { class: "sheet-backdrop", role: "dialog", "aria-modal": "true", "aria-labelledby": "go-title" },
      h("div", { class: `sheet game-over${won ? " won" : ""}` },
        won ? confetti() : null,
        h("h2", { id: "go-title", text: t("game_over") }),
        h("div", { class: "go-moment" },
          won ? trophy() : null,
          h("p", { class: "winner" }, this.winnerLine(result.winners || [], me)),
          seated && !won && result.placements[me] ? h("p", { class: "go-place",
            text: t("your_place", { place: placeLabel(result.placements[me], places) }) }) : null),
        placements,
        target ? h("p", { class: "hint go-target", text: tn("target_was", target) }) : null,
        table.lesson ? h("p", { class: "lesson-done", text: t("coach_lesson_done") }) : null,
        table.lesson
          ? h("button", { class: "btn primary real-game", type: "button", onclick: () => this.realGame(), text: t("coach_real_game") })
          : this.againButton(view),
        h("div", { class: "row go-more" },
          h("button", { class: "btn", type: "button", onclick: close, text: t("view_table") }),
          this.screen.renderer && this.screen.renderer.showScores ? h("button", { class: "btn score-btn", type: "button",
            text: t("score_sheet"), onclick: () => this.screen.renderer.showScores() }) : null,
          h("button", { class: "btn go-home", type: "button", onclick: () => this.screen.app.goHome(), text: t("home") })),
        fair));
    document.querySelectorAll(".sheet-backdrop").forEach((el) => el.remove());
    this.screen.el.append(sheet);
    if (!table.lesson) this.showRatingChanges(table.id, placements);
  }

  // Each person's rating and its change beside their place ("1392?" over "−108"); AI players are never rated and
  // show none.
  async showRatingChanges(tableId, placements) {
    if (!this.ratings || this.ratings.id !== tableId) {
      const asked = { id: tableId, seats: this.screen.app.api.get(`/api/tables/${encodeURIComponent(tableId)}/ratings`)
        .then((data) => (data && data.seats) || []) };
      asked.seats.catch(() => { if (this.ratings === asked) this.ratings = null; }); // asked again next time
      this.ratings = asked;
    }
    let seats;
    try {
      seats = await this.ratings.seats;
    } catch {
      return; // the standings stand without them
    }
    if (!seats.length || !placements.isConnected) return;
    const bySeat = new Map(seats.map((s) => [s.seat, s]));
    placements.classList.add("rated");
    for (const li of placements.children) {
      const change = bySeat.get(Number(li.dataset.seat));
      li.append(change ? ratingChange(change) : h("span", { class: "prate", "aria-hidden": "true" }));
    }
  }

  // Who won, as a line whose names are each isolated (a right-to-left name keeps the sentence in order).
  winnerLine(winners, me) {
    const people = (seats) => seats.map((seat) => this.screen.seatName(seat));
    if (winners.length === 1 && winners[0] === me) return t("you_won");
    if (winners.length > 1) {
      const others = winners.filter((seat) => seat !== me);
      return others.length < winners.length
        ? withNames("co_winners_you", "names", people(others)) : withNames("co_winners", "names", people(winners));
    }
    return withNames("winner_is", "name", people(winners.slice(0, 1)));
  }

  // After a guided game: a real game of the same game with its usual settings, dealt at once against AI players.
  async realGame() {
    try {
      const info = await this.screen.app.api.post("/api/tables",
        { game: this.screen.view.table.game, options: {}, play_now: true });
      this.screen.app.openTable(info.id);
    } catch (err) {
      toast(err.message || t("error_generic"), "error");
    }
  }

  // With other people at the table: its one rematch, the same new table for every player of it ("Join rematch"
  // once someone opened it). Alone with AI players, or only watching: a new table of the same game.
  withFriends(view) {
    const you = view.you;
    return you !== null && you !== undefined && view.table.seats.some((s) => s.handle && s.seat !== you);
  }

  againButton(view) {
    const rematch = this.withFriends(view) ? view.table.rematch || "" : null;
    return h("button", { class: "btn primary play-again", type: "button", dataset: rematch === null ? {} : { rematch },
      onclick: () => this.again(), text: rematch ? t("join_rematch") : t("play_again") });
  }

  again() {
    return this.withFriends(this.screen.view) ? this.rematch() : this.playAgain();
  }

  async rematch() {
    try {
      const info = await this.screen.app.api.post(`/api/tables/${encodeURIComponent(this.screen.tableId)}/rematch`, {});
      this.screen.app.openTable(info.id);
    } catch (err) {
      tg.haptic("error");
      if (err.status === 401) this.screen.app.authFailed();
      else toast(err.message || t("error_generic"), "error");
    }
  }

  async playAgain() {
    const table = this.screen.view.table;
    try {
      const options = { ...table.options, timer: table.timer };
      const game = factsOf(table.game);
      if (game && game.min_players !== game.max_players) options.players = table.size;
      // alone with AI players there is nobody to wait for: the new game is dealt at once (the AI fill the seats)
      const seated = this.screen.view.you !== null && this.screen.view.you !== undefined;
      const info = await this.screen.app.api.post("/api/tables", { game: table.game, options, play_now: seated });
      this.screen.app.openTable(info.id);
    } catch (err) {
      toast(err.message || t("error_generic"), "error");
    }
  }
}
