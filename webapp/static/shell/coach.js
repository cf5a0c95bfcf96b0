// The coach of a guided first game: a panel that says, at the moment it matters, what the table shows and what
// the player may do, and rings what it talks about. A game's lesson is data: an ordered list of steps, each with
// when it applies, what it says and what it points at, read from the player's own view only.
//
// A step is {id, when(f), say(f), focus?(f) -> selectors, until?(f), ack?, again?}: the first step not yet shown whose
// ``when`` holds is shown; an ``ack`` step stays (and holds the table's next frames, so a finished trick stays in
// view) until "Got it"; any other step goes once its ``until`` holds or its ``when`` no longer does. A step with
// ``again`` comes back each time its moment does (advice for every turn), the others are shown once. ``f`` is what
// the lesson's ``facts`` made of the frame on show.

import { h, clear, loadStyles } from "./dom.js";
import { t } from "./i18n.js";
import { game as gameOf } from "./games.js";

const GAP = 6;
const FLOOR_GAP = 4; // above the hand: at 360x640 every pixel goes to keeping the trick in view

loadStyles(new URL("./coach.css", import.meta.url).href);

export class Coach {
  constructor(screen, game) {
    this.screen = screen;
    this.game = game;
    this.lesson = null;
    this.memory = {};
    this.done = new Set();
    this.seen = []; // the steps shown so far, in order
    this.step = null;
    this.facts = null;
    this.collapsed = false;
    this.focusSelectors = [];
    this.text = h("p", { class: "coach-text" });
    this.buttons = h("div", { class: "coach-buttons" });
    this.el = h("aside", { class: "coach", hidden: true, "aria-live": "polite", "aria-label": t("coach_title") },
      h("div", { class: "coach-head" },
        h("span", { class: "coach-badge", "aria-hidden": "true", text: "?" }),
        h("b", { class: "coach-title", text: t("coach_title") }),
        h("button", { class: "icon-btn coach-hide", type: "button", "aria-label": t("coach_hide"),
          onclick: () => this.collapse(true), text: "–" })),
      this.text, this.buttons);
    this.pill = h("button", { class: "btn small coach-pill", type: "button", hidden: true,
      onclick: () => this.collapse(false), text: t("coach_show") });
    this.observer = new MutationObserver(() => this.ring());
    this.place = () => this.position();
    window.addEventListener("resize", this.place);
    window.addEventListener("scroll", this.place, { passive: true });
    const desc = gameOf(game);
    const load = desc && desc.lesson;
    this.ready = load ? load().then((module) => { this.lesson = module; }) : Promise.resolve();
  }

  // Mount the panel in the table screen and watch its body (the renderers rebuild their DOM on every render).
  mount(root, body) {
    root.append(this.el, this.pill);
    this.root = root;
    this.observer.observe(body, { childList: true, subtree: true });
  }

  destroy() {
    this.observer.disconnect();
    window.removeEventListener("resize", this.place);
    window.removeEventListener("scroll", this.place);
    this.el.remove();
    this.pill.remove();
  }

  // Whether the table should hold its next frames: a step waits to be read.
  holding() {
    return Boolean(this.step && this.step.ack && !this.collapsed);
  }

  // A frame the table has just put on show.
  async see(view, events) {
    await this.ready;
    if (!this.lesson || !view.state) return;
    const f = this.lesson.facts(view, events || [], this.memory, this.screen);
    this.facts = f;
    const step = this.step;
    if (step && !step.ack && ((step.until && step.until(f)) || !step.when(f))) this.finish();
    else if (step && step.ack && step.until && step.until(f)) this.finish();
    const next = this.lesson.steps.find((s) => !this.done.has(s.id) && s !== this.step && s.when(f));
    if (!this.step) {
      if (next) this.show(next, f);
    } else if (!this.step.ack) {
      // a moment to read (a trick just taken) comes before advice that still holds; that advice comes back after
      this.show(next && next.ack ? next : this.step, f);
    }
    if (!this.step) this.hide();
  }

  show(step, f) {
    this.step = step;
    this.el.dataset.step = step.id;
    if (!this.seen.includes(step.id)) this.seen.push(step.id);
    this.el.dataset.seen = this.seen.join(" ");
    this.text.textContent = step.say(f);
    this.focusSelectors = step.focus ? [].concat(step.focus(f) || []) : [];
    clear(this.buttons);
    if (step.ack) {
      this.buttons.append(h("button", { class: "btn primary coach-next", type: "button", text: t("coach_got_it"),
        onclick: () => this.acknowledge() }));
    }
    this.el.hidden = this.collapsed;
    this.pill.hidden = !this.collapsed;
    this.ring();
  }

  acknowledge() {
    this.finish();
    if (this.facts) {
      const next = this.lesson.steps.find((s) => !this.done.has(s.id) && s.when(this.facts));
      if (next) this.show(next, this.facts);
    }
    if (!this.step) this.hide();
    this.screen.coachResumed();
  }

  finish() {
    if (!this.step) return;
    if (!this.step.again) this.done.add(this.step.id);
    this.step = null;
    this.focusSelectors = [];
  }

  hide() {
    this.el.hidden = true;
    delete this.el.dataset.step;
    this.ring();
  }

  collapse(on) {
    this.collapsed = on;
    this.el.hidden = on || !this.step;
    this.pill.hidden = !on;
    this.ring();
    if (on) this.screen.coachResumed();
  }

  // Ring what the step talks about (again after each render), then find the panel a place that covers none of it.
  ring() {
    if (!this.root) return;
    const want = new Set();
    for (const sel of this.focusSelectors) this.root.querySelectorAll(sel).forEach((el) => want.add(el));
    this.root.querySelectorAll(".coach-focus").forEach((el) => { if (!want.has(el)) el.classList.remove("coach-focus"); });
    want.forEach((el) => { if (!el.classList.contains("coach-focus")) el.classList.add("coach-focus"); });
    // a step that rings the finished trick tells who took it, as the felt's caption does: one of them says it
    const tells = !this.el.hidden && [...want].some((el) => el.closest(".trick.done"));
    if (this.root.classList.contains("coach-tells-trick") !== tells) this.root.classList.toggle("coach-tells-trick", tells);
    this.position();
  }

  // Between the top bar and the hand, never over the hand or the main action: at the top of that band or at its
  // foot, whichever covers less of what the step points at and then of the cards on the table.
  position() {
    if (this.el.hidden || !this.root) return;
    const bar = this.root.querySelector(".topbar");
    const top = bar ? bar.getBoundingClientRect().bottom + GAP : GAP;
    const keep = [...this.root.querySelectorAll(".hand, .actions")].map((el) => el.getBoundingClientRect())
      .filter((r) => r.height > 0);
    const floor = Math.min(window.innerHeight, ...keep.map((r) => r.top)) - FLOOR_GAP;
    this.el.style.maxHeight = ""; // measured whole, not as tall as its last place let it be
    const height = this.el.offsetHeight;
    const rects = (sel) => [...this.root.querySelectorAll(sel)].map((el) => el.getBoundingClientRect())
      .filter((r) => r.height > 0 && r.bottom > top && r.top < floor);
    const focus = rects(".coach-focus");
    // the trick and its caption, and whatever else of the table the lesson asks not to cover
    const caption = this.root.classList.contains("coach-tells-trick") ? []
      : [...this.root.querySelectorAll(".felt .caption")].filter((el) => el.textContent.trim())
        .map((el) => el.getBoundingClientRect()).filter((r) => r.height > 0 && r.bottom > top && r.top < floor);
    const table = [...rects([".trick .card", this.lesson && this.lesson.board].filter(Boolean).join(", ")), ...caption];
    const atTop = { top, bottom: top + height };
    const atBottom = { top: Math.max(top, floor - height), bottom: floor };
    const covered = (band, list) => list.reduce((sum, r) => sum + Math.max(0, Math.min(r.bottom, band.bottom) - Math.max(r.top, band.top)), 0);
    const cost = (band) => covered(band, focus) * 1000 + covered(band, table);
    const band = cost(atBottom) < cost(atTop) ? atBottom : atTop;
    this.el.style.top = `${Math.round(band.top)}px`;
    this.el.style.maxHeight = `${Math.max(96, Math.round(floor - band.top))}px`;
    this.el.dataset.place = band === atTop ? "top" : "bottom";
  }
}
