// What every game's table shares: its view, which seat is yours, the turn clock, and tearing down.
// A game's table extends TableRenderer, builds `this.el` (with a `this.clockEl` where the clock shows)
// and says when its game is over with isOver().

import { formatClock } from "./dom.js";
import * as tg from "./tg.js";
import { cue } from "./sound.js";

export class TableRenderer {
  constructor(ctx) {
    this.ctx = ctx;
    this.view = null;
    this.el = null;
    this.clockEl = null;
    this.wasMyTurn = false;
    this.clock = setInterval(() => this.renderClock(), 1000);
  }

  destroy() {
    clearInterval(this.clock);
    tg.mainButton(null);
    if (this.el) this.el.remove();
  }

  get you() {
    return this.view && typeof this.view.you === "number" ? this.view.you : null;
  }

  get state() {
    return this.view.state;
  }

  isOver() {
    return false;
  }

  // Whether it is your turn now: the moment it becomes so, a buzz (in Telegram) and, with sound on, a chime.
  noteTurn(mine) {
    if (mine && !this.wasMyTurn) {
      tg.haptic("turn");
      cue("turn");
    }
    this.wasMyTurn = mine;
  }

  renderClock() {
    if (!this.clockEl || !this.view) return;
    const table = this.view.table;
    if (!table.deadline || table.timer === "none" || this.isOver()) {
      this.clockEl.textContent = "";
      return;
    }
    const left = table.deadline - Date.now() / 1000;
    this.clockEl.textContent = formatClock(left);
    this.clockEl.classList.toggle("low", left < 15);
  }
}
