// Provably fair deals, checked in the page: the seed hash shown from the start, and once the seed is revealed,
// sha256(seed) and every deal re-derived here from the README's recipe ("Provably fair deals") and compared with
// the hands this page was dealt (kept per table in localStorage).
//   stream(purpose) = sha256("<seed>:<purpose>:0") ‖ sha256("<seed>:<purpose>:1") ‖ …
//   below(k): next 8 bytes big-endian as x, rejected while x ≥ 2^64 − 2^64 mod k, else x mod k
//   shuffle: Fisher–Yates from the end, swapping item i with item below(i + 1)

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { DECKS, cardName } from "./cards.js";
import { deckOf, game as gameOf, handSize, removesCard } from "./games.js";
import { openSheet } from "./sheet.js";

const SPAN = 1n << 64n;
const KEY = "cardroom.deals.";

// The cards of a deck in deck order: suit by suit, ranks low to high ("2-cups" … "A-clubs").
export function deckOrder(deck) {
  return DECKS[deck].suits.flatMap((suit) => DECKS[deck].ranks.map((rank) => `${rank}-${suit}`));
}

async function digest(text) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

export async function sha256Hex(text) {
  return [...await digest(text)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// The random stream of one seed and purpose ("deal:3").
class DealStream {
  constructor(seed, purpose) {
    this.prefix = `${seed}:${purpose}:`;
    this.block = 0;
    this.buffer = new Uint8Array(0);
    this.pos = 0;
  }

  async next64() {
    if (this.pos + 8 > this.buffer.length) {
      this.buffer = await digest(this.prefix + String(this.block));
      this.block += 1;
      this.pos = 0;
    }
    const x = new DataView(this.buffer.buffer, this.pos, 8).getBigUint64(0, false);
    this.pos += 8;
    return x;
  }

  async below(n) {
    const k = BigInt(n);
    const limit = SPAN - (SPAN % k);
    for (;;) {
      const x = await this.next64();
      if (x < limit) return Number(x % k);
    }
  }

  async shuffled(items) {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = await this.below(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

// The shuffled order of 0..n-1 for a seed and purpose (``python -m engine.core.rng SEED PURPOSE N`` prints the same).
export async function shuffledOrder(seed, purpose, n) {
  return new DealStream(seed, purpose).shuffled([...Array(n).keys()]);
}

// Every seat's hand of deal ``no`` (cards in deck order), or null where this page cannot re-derive that game's deal.
export async function dealHands(game, seed, { no, dealer, players, handSize: seen, variant, removedCard }) {
  const deck = deckOrder(deckOf(game));
  let cards = [...deck.keys()];
  // the server's hand size for the game (and variant), else the one the view said
  const size = handSize(game, variant) || seen;
  if (removesCard(game, variant)) {
    const removed = removedCard ? deck.indexOf(removedCard) : await new DealStream(seed, `removed:${no}`).below(deck.length);
    cards = cards.filter((c) => c !== removed);
  }
  if (!size) return null;
  const order = await new DealStream(seed, `deal:${no}`).shuffled(cards);
  const hands = Array.from({ length: players }, () => []);
  for (let k = 0; k < size * players; k += 1) hands[(dealer + 1 + k) % players].push(order[k]);
  return hands.map((hand) => hand.sort((a, b) => a - b).map((c) => deck[c]));
}

// What this page was dealt at a table: [{no, dealer, players, handSize, variant, removedCard, seat, cards}].
export class DealBook {
  constructor(tableId) {
    this.key = KEY + tableId;
    try { this.deals = JSON.parse(localStorage.getItem(this.key) || "[]") || []; } catch { this.deals = []; }
  }

  see(view, events) {
    const s = view.state;
    if (!s || typeof view.you !== "number") return;
    const fair = (gameOf(s.game) || {}).fair || {};
    // some deals renumber the stream (a game's descriptor says which): those are not checked
    if (fair.skipDeal && fair.skipDeal(s)) return;
    for (const e of events || []) {
      if (e.type === "dealt" && e.seat === view.you && e.cards) this.add(s, view.you, e.hand_no, e.dealer, e.cards);
    }
    // a page opened after the deal: the hand is still whole until its game's first change to it
    const whole = fair.wholeHand ? fair.wholeHand(s, handSize(s.game, s.variant)) : false;
    if (whole) this.add(s, view.you, s.hand_no, s.dealer, s.hand);
  }

  add(s, seat, no, dealer, cards) {
    if (this.deals.some((d) => d.no === no)) return;
    this.deals.push({ no, dealer, players: s.players, handSize: s.tricks_per_hand || 0, variant: s.variant || null,
      removedCard: s.removed_card || null, seat, cards: [...cards].sort() });
    try { localStorage.setItem(this.key, JSON.stringify(this.deals)); } catch { /* the check covers what it has */ }
  }
}

// Check ``seed`` against the table's hash and the deals this page saw: {hashOk, checked, mismatched, first}.
export async function verify(game, seed, seedHash, deals) {
  const hashOk = (await sha256Hex(seed)) === seedHash;
  let checked = 0;
  const mismatched = [];
  let first = null;
  for (const d of [...deals].sort((a, b) => a.no - b.no)) {
    const hands = await dealHands(game, seed, d);
    if (!hands) continue;
    checked += 1;
    if ([...hands[d.seat]].sort().join() !== d.cards.join()) mismatched.push(d.no);
    if (!first) first = { no: d.no, hands };
  }
  return { hashOk, checked, mismatched, first, ok: hashOk && mismatched.length === 0 };
}

// The check's result as nodes (a verdict, then the first deal's hands), and the result itself: {el, r}.
async function resultEl(game, seed, seedHash, deals, name) {
  const r = await verify(game, seed, seedHash, deals);
  const deck = deckOf(game);
  let verdict;
  if (!r.hashOk) verdict = t("fair_hash_mismatch");
  else if (r.mismatched.length) verdict = t("fair_deal_mismatch", { list: r.mismatched.join(", ") });
  else if (r.checked) verdict = t("fair_verified");
  else verdict = t("fair_hash_only");
  const out = h("div", { class: `fair-result ${r.ok ? "ok" : "bad"}`, dataset: { ok: String(r.ok) } },
    h("p", { class: "fair-verdict", text: `${r.ok ? "✓" : "✗"} ${verdict}` }));
  if (r.ok && r.first) {
    out.append(h("details", { class: "fair-first" }, h("summary", { text: t("fair_first_deal", { n: r.first.no }) }),
      h("ul", { class: "fair-hands" }, r.first.hands.map((hand, seat) => h("li", {},
        h("b", { text: `${name(seat)}: ` }), h("span", { text: hand.map((c) => cardName(c, deck)).join(", ") }))))));
  }
  return { el: out, r };
}

// The end sheet's fold on the deal: its one line says "Check the deal" until the panel under it has checked the
// revealed seed against its hash and the deals this page saw, then the verdict: "Fair deal — verified" in every
// game, whether or not this page saw a deal it could re-deal (the panel's own verdict says which checks were made).
export function fairFold(view, book, name) {
  const line = h("summary", { class: "fair-summary", text: t("check_deal") });
  const panel = fairPanel(view, book, name, (r) => {
    line.textContent = r.ok ? t("fair_line_verified") : t("fair_line_failed");
    line.dataset.ok = String(r.ok);
  });
  return h("details", { class: "fair-details" }, line, h("div", { class: "seed" }, panel));
}

// The fairness panel: the hash from the start; with the seed revealed, the check (and a field to check any seed).
// ``checked(r)`` hears the result of the revealed seed's own check, run once as the panel is made.
export function fairPanel(view, book, name, checked = null) {
  const table = view.table;
  const game = table.game;
  const panel = h("div", { class: "fair" },
    h("div", {}, h("span", { class: "label", text: t("seed_hash") }), h("code", { class: "seed-hash", text: table.seed_hash || "" })));
  if (!table.seed) {
    panel.append(h("p", { class: "hint", text: t("fair_explained") }));
    return panel;
  }
  const input = h("input", { class: "fair-seed", type: "text", value: table.seed, "aria-label": t("seed"), spellcheck: "false",
    autocomplete: "off" });
  const out = h("div", { class: "fair-out", "aria-live": "polite" });
  const run = async (first = false) => {
    out.replaceChildren(h("p", { class: "hint", text: t("fair_checking") }));
    const { el, r } = await resultEl(game, input.value.trim(), table.seed_hash, book.deals, name);
    out.replaceChildren(el);
    if (first && checked) checked(r);
  };
  panel.append(h("div", {}, h("span", { class: "label", text: t("seed") }), h("code", { class: "seed-value", text: table.seed })),
    h("label", { class: "fair-field" }, h("span", { class: "label", text: t("fair_seed_to_check") }), input),
    h("button", { class: "btn small fair-check", type: "button", text: t("fair_check"), onclick: () => run() }), out,
    h("p", { class: "hint", text: t("seed_explained") }));
  run(true);
  return panel;
}

// The "fair deal" badge of the table bar: opens the panel.
export function fairBadge(getView, getBook, name) {
  return h("button", { class: "fair-badge", type: "button", title: t("fair_badge"), "aria-label": t("fair_badge"),
    onclick: () => {
      const view = getView();
      if (view) openSheet(t("fair_title"), fairPanel(view, getBook(), name), { cls: "fair-sheet" });
    } }, shield(), h("span", { class: "fair-text", text: t("fair_badge_short") }));
}

function shield() {
  const span = h("span", { class: "fair-icon", "aria-hidden": "true" });
  span.innerHTML = '<svg viewBox="0 0 24 24" width="16" height="16"><path d="M12 2l8 3v6c0 5-3.4 9.4-8 11-4.6-1.6-8-6-8-11V5z" ' +
    'fill="currentColor"/><path d="M8 12.2l2.7 2.7L16.3 9" fill="none" stroke="#fff" stroke-width="2.2"/></svg>';
  return span;
}
