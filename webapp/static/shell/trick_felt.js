// What the trick-taking tables share: tricks you can follow. Each card flies from its
// player's seat to the trick; a finished trick stays on the felt, whole and with its winning card marked, until the
// next card is led (also across a new deal), and then sweeps to its winner; frames that arrive meanwhile wait a
// moment so it can be read. The points of a trick rise to its winner's score; a hand's end shows each player's
// change on the felt before the next hand's play, and a new hand is dealt from the felt into yours. "Your turn"
// waits until the cards in flight have landed: the table says so once it has settled.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { backEl, cardEl } from "./cards.js";
import { dealIn, dealOut, flyIn, flyPoints, lift, reducedMotion, sweepTo } from "./motion.js";
import { cue } from "./sound.js";

export const FLY_MS = 260;
export const LAND_MS = 140; // another player's card rests this long once landed before the next frame shows
export const HOLD_MS = 1000; // a finished trick stays readable at least this long before the next lead shows
export const HAND_END_MS = 2200; // how long the hand's end stays on the felt, the next frames waiting

// The plays of a trick just taken: those this page saw, or, when it came in after the trick's first card (opened
// or reconnected mid-trick), the whole trick as the view has it (its last trick, ending with the same card).
function wholeTrick(seen, s) {
  const last = (s && s.last_trick) || [];
  const tail = (plays) => (plays.length ? plays[plays.length - 1].card : null);
  return seen.length < last.length && (!seen.length || tail(seen) === tail(last)) ? [...last] : seen;
}

// Paces a table's updates: ``table.apply(view, events)`` renders one frame; frames wait while a trick is on show.
export class TrickPacer {
  constructor(table) {
    this.table = table;
    this.queue = [];
    this.holdUntil = 0;
    this.timer = 0;
    this.building = []; // plays of the trick in progress, from the events seen
    this.finished = null; // {plays, winner, points} of the trick just taken, until the next lead
    this.previous = null; // the trick before the one in progress, for the "Last trick" button
    this.waiters = [];
    this.youTook = false; // the trick just noted is yours: its chime follows the last card
    this.tally = null; // {seat, text} of the trick just taken: rises to its winner's score after the last card
    this.dealing = false; // a new hand of yours came: dealt in once it shows
    this.handOver = null; // the hand_over event of the frame being shown
    this.ending = null; // {title, rows, from, until} of the hand just over, shown on the felt meanwhile
    this.endTimer = 0;
    this.landing = 0; // others' cards in flight: until they land the table does not say it is your turn
  }

  // Whether every card played or dealt has landed: the table may say "Your turn".
  landed() {
    return this.landing === 0;
  }

  // Something in flight has landed: once all has, the status may say whose turn it is (the table draws only its
  // status; the rest may still move).
  land() {
    this.landing = Math.max(0, this.landing - 1);
    if (this.landed() && this.table.view && this.table.renderStatus) this.table.renderStatus(this.table.state);
  }

  destroy() {
    clearTimeout(this.timer);
    clearTimeout(this.endTimer);
    this.queue = [];
  }

  push(view, events, kind) {
    if (kind === "welcome") this.queue = [];
    this.queue.push([view, events || [], kind]);
    this.pump();
  }

  busy() {
    return this.queue.length > 0 || Date.now() < this.holdUntil;
  }

  // Call ``done`` once every waiting frame is shown; false when nothing waits.
  settling(done) {
    if (!this.busy()) return false;
    this.waiters.push(done);
    return true;
  }

  pump() {
    clearTimeout(this.timer);
    while (this.queue.length) {
      const wait = this.holdUntil - Date.now();
      // your own move shows at once, with everything before it: the page never lags behind your hand
      const mine = this.queue.some(([view, events]) => events.some((e) => e.type === "played" && e.seat === view.you));
      if (this.table.ctx.holding && this.table.ctx.holding() && !mine) return; // a guided game's coach resumes it
      if (wait > 0 && !mine) {
        this.timer = setTimeout(() => this.pump(), wait);
        return;
      }
      const [view, events, kind] = this.queue.shift();
      const leaving = this.leavingTrick();
      const flights = this.note(events, view);
      this.table.apply(view, events, kind);
      this.story(leaving);
      this.animate(flights);
      if (this.table.ctx.shown) this.table.ctx.shown(view, events);
    }
    if (Date.now() < this.holdUntil) {
      this.timer = setTimeout(() => this.pump(), this.holdUntil - Date.now());
      return;
    }
    const waiters = this.waiters.splice(0);
    for (const done of waiters) done();
  }

  // Follow the trick through the events; the plays to animate.
  note(events, view) {
    const you = typeof view.you === "number" ? view.you : null;
    const flights = [];
    let others = 0;
    for (const e of events) {
      if (e.type === "played") {
        if (!this.building.length && this.finished) {
          this.previous = this.finished;
          this.finished = null;
        }
        this.building.push({ seat: e.seat, card: e.card });
        flights.push(e);
        if (e.seat !== you) others += 1;
      } else if (e.type === "trick_won") {
        const plays = wholeTrick(this.building, view.state);
        if (plays.length) this.finished = { plays, winner: e.seat, points: e.points || 0 };
        if (e.seat === you) this.youTook = true;
        const text = this.table.tallyText ? this.table.tallyText(e) : null;
        this.tally = text ? { seat: e.seat, text } : null;
        this.building = [];
        this.holdUntil = Date.now() + HOLD_MS;
      } else if (e.type === "dealt" || e.type === "hand_over") {
        this.building = [];
        if (e.type === "dealt" && e.seat === you && !this.dealing) {
          this.dealing = true;
          this.landing += 1; // your turn is told once the deal has landed (story)
        }
        if (e.type === "hand_over") this.handOver = e;
      }
    }
    if (others && !reducedMotion()) {
      this.holdUntil = Math.max(this.holdUntil, Date.now() + FLY_MS * flights.length + LAND_MS);
      flights.others = true;
      this.landing += 1; // before the frame is drawn: its status waits for the landing (animate)
    }
    return flights;
  }

  // The hand just over ({title, rows}) shows on the felt over its last trick for a moment, the next frames waiting
  // a little longer than a trick's.
  endHand(card) {
    if (!card) return false;
    const now = Date.now();
    this.ending = { ...card, until: now + HAND_END_MS, entered: false };
    this.holdUntil = Math.max(this.holdUntil, this.ending.until);
    clearTimeout(this.endTimer);
    this.endTimer = setTimeout(() => { if (this.table.view) this.table.render(); }, HAND_END_MS + 20);
    return true;
  }

  // Copies of the finished trick on show, taken before a frame may replace it, with its winner.
  leavingTrick() {
    const done = this.table.el && this.table.el.querySelector(".trick.done");
    if (!done || reducedMotion()) return null;
    const win = done.querySelector(".card.win");
    return { lifted: lift([...done.querySelectorAll(".card")]), winner: win ? win.dataset.seat : null };
  }

  // What the frame just shown tells beyond its cards: the finished trick gone from the felt sweeps to its winner,
  // a new hand is dealt from the felt (yours into your hand, backs to the others), the hand over comes to the felt in a moment.
  story(leaving) {
    const el = this.table.el;
    // drawn again with the hand's end on the felt: a table whose felt holds words shows it alone (never over them)
    if (this.handOver && this.table.handEnd && this.endHand(this.table.handEnd(this.handOver))) this.table.render();
    this.handOver = null;
    if (leaving && leaving.winner !== null && !el.querySelector(".trick.done")) {
      sweepTo(leaving.lifted, el.querySelector(`.player[data-seat="${leaving.winner}"]`));
    }
    if (this.dealing) {
      this.dealing = false;
      const felt = el.querySelector(".felt");
      const deck = felt && felt.getBoundingClientRect();
      Promise.all([dealOut(deck, [...el.querySelectorAll(".ring > .player")], () => backEl()),
        dealIn([...el.querySelectorAll(".hand .card")], deck)]).then(() => this.land());
    }
  }

  // Each card flies in and lands with a blip (sound on); a trick you took ends with its chime, and the trick's
  // points rise to its winner's score.
  async animate(flights) {
    const el = this.table.el;
    const youTook = this.youTook;
    const tally = this.tally;
    this.youTook = false;
    this.tally = null;
    for (const e of flights) {
      const target = el.querySelector(`.trick .card[data-card="${e.card}"]`);
      const seat = el.querySelector(`.player[data-seat="${e.seat}"]`);
      if (target) target.style.visibility = "hidden";
      await flyIn(target, seat, FLY_MS);
      if (target) target.style.visibility = "";
      cue("card");
    }
    if (flights.others) this.land();
    if (youTook) cue("trick");
    if (tally && this.table.tallyEl) {
      flyPoints(tally.text, el.querySelector(".trick .card.win") || el.querySelector(".felt"), () => this.table.tallyEl(tally.seat));
    }
  }

  // The finished trick to show while no card of the next one is down: from the events, or (after a reload) the
  // view's last trick and who took it.
  shownTrick(s) {
    if (s.trick.length) return null;
    if (this.finished) return this.finished;
    if (!s.last_trick || !s.last_trick.length) return null;
    return { plays: s.last_trick, winner: s.last_trick_winner ?? null, points: 0 };
  }
}

// The trick on the felt: the live one, or the finished one with its winner marked. ``slots`` maps seat to place.
export function trickEl(s, pacer, slots, deck) {
  const live = s.trick.length > 0;
  const done = live ? null : pacer.shownTrick(s);
  const showing = live ? s.trick : done ? done.plays : [];
  const trick = h("div", { class: `trick${done ? " done" : ""}` });
  showing.forEach((play, i) => {
    const won = done && play.seat === done.winner;
    const card = cardEl(play.card, deck, { classes: `slot-${slots[play.seat]}${won ? " win" : ""}` });
    card.dataset.seat = String(play.seat);
    card.append(h("span", { class: "order", text: String(i + 1) }));
    if (won) card.append(h("span", { class: "win-mark", text: t("rules_wins") }));
    trick.append(card);
  });
  return { trick, live, done };
}

// Under the trick: a caption (who took the finished trick, who leads, or a short flash) and the "Last trick"
// toggle with the finished trick's cards while the next is being played.
// `table` has ctx, flashed, showLast and render(); `leading` says whether to name the leader.
export function appendTrickExtras(table, felt, s, { live, done, deck, leading }) {
  const prev = table.pacer.previous;
  const last = prev ? prev.plays : s.last_trick;
  const lastWinner = prev ? prev.winner : (s.last_trick_winner ?? null);
  const lastLabel = () => (lastWinner !== null
    ? t("last_trick_won_by", { name: table.ctx.name(lastWinner) }) : t("last_trick"));
  let caption = "";
  if (done && done.winner !== null && done.winner !== undefined) {
    caption = done.points ? t("took_trick_points", { name: table.ctx.name(done.winner), n: done.points })
      : t("took_trick", { name: table.ctx.name(done.winner) });
  } else if (!live && leading && s.turn !== null && s.turn !== undefined) caption = t("leads", { name: table.ctx.name(s.turn) });
  if (!done && table.flashed && Date.now() < table.flashed.until) caption = table.flashed.text;
  felt.append(h("div", { class: "caption", text: caption }));
  appendHandEnd(table.pacer, felt);
  if (!live || !last || !last.length) return;
  felt.append(h("button", { class: "btn small last-btn", type: "button", "aria-expanded": String(table.showLast),
    onclick: () => { table.showLast = !table.showLast; table.render(); }, text: t("last_trick") }));
  if (table.showLast) {
    felt.append(h("div", { class: "last-trick" },
      h("div", { class: "label", text: lastLabel() }),
      h("div", { class: "row" }, last.map((play) => h("div", { class: `lt${play.seat === lastWinner ? " win" : ""}` },
        cardEl(play.card, deck), h("span", { text: table.ctx.name(play.seat) }))))));
  }
}

// The hand just over, on the felt for a moment: each player's change (motion only brings it in). Whether it shows.
export function appendHandEnd(pacer, felt) {
  const ending = pacer.ending;
  if (!ending || Date.now() >= ending.until) return false;
  const card = h("div", { class: `hand-end${ending.entered ? "" : " enter"}`, role: "status" },
    h("h3", { text: ending.title }),
    h("ul", {}, ending.rows.map((row) => h("li", {},
      h("bdi", { class: "he-name", text: row.name }),
      h("b", { class: row.change > 0 ? "up" : row.change < 0 ? "down" : "", text: row.text })))));
  ending.entered = true;
  felt.append(card);
  return true;
}
