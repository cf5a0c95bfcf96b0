// Card art: an SVG sprite of the Spanish and French suits and court figures, and card faces built from it.

import { CASES, named, t, tOr } from "./i18n.js";

const SPRITE = `
<symbol id="sp-cups" viewBox="0 0 24 24"><path d="M4.5 3h15c.3 6-3 9.6-6.2 10.2V17c2.3.3 4.2 1.2 4.7 3.2V22H6v-1.8c.5-2 2.4-2.9 4.7-3.2v-3.8C7.5 12.6 4.2 9 4.5 3z"/><path d="M6.3 5.2h11.4" stroke="#fff" stroke-width="1.1" opacity=".7"/></symbol>
<symbol id="sp-coins" viewBox="0 0 24 24"><circle cx="12" cy="12" r="10.5"/><circle cx="12" cy="12" r="7.4" fill="none" stroke="#fff" stroke-width="1.3" opacity=".75"/><path d="M12 7.2l1.4 3.2 3.4.3-2.6 2.2.8 3.4-3-1.8-3 1.8.8-3.4-2.6-2.2 3.4-.3z" fill="#fff" opacity=".8"/></symbol>
<symbol id="sp-swords" viewBox="0 0 24 24"><path d="M12 .8l2.1 3v12.1H9.9V3.8z"/><path d="M12 3.4v11.6" stroke="#fff" stroke-width=".8" opacity=".6"/><path d="M5 15.6h14a1 1 0 010 2.2H5a1 1 0 010-2.2z"/><path d="M10.9 17.6h2.2v3.6h-2.2z"/><circle cx="12" cy="22.3" r="1.5"/></symbol>
<symbol id="sp-clubs" viewBox="0 0 24 24"><path d="M7.6 22.8c-1.2-.4-1.6-1.5-1.3-2.6L12.6 3c.7-1.8 2.3-2.5 4-2 1.8.6 2.4 2.3 1.9 4L12 21.6c-.5 1.2-2.6 1.7-4.4 1.2z"/><circle cx="16.9" cy="8.6" r="1.6"/><circle cx="11.3" cy="10.4" r="1.5"/><circle cx="14.1" cy="15.2" r="1.4"/><circle cx="9.4" cy="17.2" r="1.3"/></symbol>
<symbol id="fr-hearts" viewBox="0 0 24 24"><path d="M12 21.5C5.6 16.5 1.5 12.8 1.5 8 1.5 4.8 4 2.5 7 2.5c2.1 0 3.9 1.2 5 3 1.1-1.8 2.9-3 5-3 3 0 5.5 2.3 5.5 5.5 0 4.8-4.1 8.5-10.5 13.5z"/></symbol>
<symbol id="fr-diamonds" viewBox="0 0 24 24"><path d="M12 1l8.5 11L12 23 3.5 12z"/></symbol>
<symbol id="fr-spades" viewBox="0 0 24 24"><path d="M12 1.5C9 6 2.5 9.6 2.5 14.2c0 3 2.3 5 4.9 5 1.7 0 3-.8 3.8-1.9-.3 2-1.2 3.6-3 5.2h7.6c-1.8-1.6-2.7-3.2-3-5.2.8 1.1 2.1 1.9 3.8 1.9 2.6 0 4.9-2 4.9-5C21.5 9.6 15 6 12 1.5z"/></symbol>
<symbol id="fr-clubs" viewBox="0 0 24 24"><circle cx="12" cy="6.6" r="5"/><circle cx="6.3" cy="14.2" r="5"/><circle cx="17.7" cy="14.2" r="5"/><path d="M11 13h2c.2 4 1.3 6.6 3.4 9.5H7.6C9.7 19.6 10.8 17 11 13z"/></symbol>
<symbol id="fig-K" viewBox="0 0 24 24"><circle cx="12" cy="10.2" r="4"/><path d="M3.5 24c.6-6.4 4.2-8.6 8.5-8.6s7.9 2.2 8.5 8.6z"/><path d="M7.6 6.8L7.2 1.6l2.5 2.3L12 .6l2.3 3.3 2.5-2.3-.4 5.2z" fill="#e3a81b" stroke="#7a5500" stroke-width=".5"/></symbol>
<symbol id="fig-Q" viewBox="0 0 24 24"><circle cx="12" cy="10.2" r="4"/><path d="M3.5 24c.6-6.4 4.2-8.6 8.5-8.6s7.9 2.2 8.5 8.6z"/><path d="M6.2 9.4C6 4.6 8.6 3 12 3s6 1.6 5.8 6.4c-1-2.6-3-3.6-5.8-3.6S7.2 6.8 6.2 9.4z"/><circle cx="12" cy="3" r="1.3" fill="#e3a81b"/><circle cx="8.7" cy="4.1" r=".9" fill="#e3a81b"/><circle cx="15.3" cy="4.1" r=".9" fill="#e3a81b"/></symbol>
<symbol id="fig-N" viewBox="0 0 24 24"><path d="M5 23.5c-.3-4.6 1-8.4 3.6-11.6L7.3 6.7l3 1.6c1.7-2 4.3-3 7-2.3l1.7 1.6 2.6 4.4c.3.9-.3 1.7-1.3 1.7l-3-1c-1.4.5-1.8 1.7-1.3 3.4.7 2.5 2 4.6 3.5 7.4z"/><circle cx="15" cy="9.6" r=".9" fill="#fff"/><path d="M9.3 8.6c-1.3 2-2.4 4-2.8 6.3" stroke="#fff" stroke-width=".9" fill="none" opacity=".7"/></symbol>
<symbol id="fig-J" viewBox="0 0 24 24"><circle cx="12" cy="10.2" r="4"/><path d="M3.5 24c.6-6.4 4.2-8.6 8.5-8.6s7.9 2.2 8.5 8.6z"/><path d="M6.8 8.3c.4-3.3 2.6-4.9 5.7-4.9 2.5 0 4.4.9 5.9 2.6l-2.3.4c-.8 1.4-2.9 1.9-9.3 1.9z"/><path d="M16.5 4.5l3.6-3" stroke="#c62828" stroke-width="1.2"/></symbol>
<pattern id="back-pattern" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="#27408b"/><rect width="4" height="4" fill="#3556b5"/></pattern>`;

// Each deck, defined once: its suits in deck order and its ranks low to high, the order the deals are drawn in.
export const DECKS = {
  spanish: { suits: ["cups", "coins", "swords", "clubs"], ranks: ["2", "3", "4", "5", "6", "7", "8", "9", "J", "N", "K", "A"] },
  french: { suits: ["hearts", "diamonds", "clubs", "spades"], ranks: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"] },
};
const SPANISH_SUITS = DECKS.spanish.suits;
const FRENCH_SUITS = DECKS.french.suits;
const CARD_RE = /^(A|K|Q|N|J|10|[2-9])-(cups|coins|swords|clubs|hearts|diamonds|spades)$/;
const SPANISH_RANKS = [...DECKS.spanish.ranks].reverse(); // high first, for sorting a hand
const FRENCH_RANKS = [...DECKS.french.ranks].reverse();
const COURTS = new Set(["K", "Q", "N", "J"]);

export function installSprite() {
  if (document.getElementById("card-sprite")) return;
  const wrap = document.createElement("div");
  wrap.innerHTML = `<svg id="card-sprite" width="0" height="0" style="position:absolute" aria-hidden="true"><defs>${SPRITE}</defs></svg>`;
  document.body.prepend(wrap.firstElementChild);
}

export function parseCard(card) {
  const m = CARD_RE.exec(card || "");
  return m ? { rank: m[1], suit: m[2] } : null;
}

export function suitSymbol(suit, deck) {
  return `${deck === "spanish" ? "sp" : "fr"}-${suit}`;
}

export function suitIcon(suit, deck, size = 18) {
  const span = document.createElement("span");
  span.className = `suit-icon suit-${deck}-${suit}`;
  span.innerHTML = `<svg viewBox="0 0 24 24" width="${size}" height="${size}" aria-hidden="true"><use href="#${suitSymbol(suit, deck)}"/></svg>`;
  return span;
}

// A suit's name in the page's language: the Spanish and French decks each have their own words
// (Spanish clubs are Булавы in Russian, French clubs Трефы).
// With its case forms, for a sentence that asks for one (``{suit:gen}``).
export function suitName(suit, deck) {
  const key = `suit_${deck}_${suit}`;
  return named(t(key), Object.fromEntries(CASES.map((c) => [c, tOr(`${key}_${c}`, t(key))])));
}

// A card in words, as the page's language says it: "Ace of Cups", "туз червей", "пятёрка монет", "하트 에이스",
// "kreiču dāma".
export function cardName(card, deck) {
  const c = parseCard(card);
  if (!c) return card;
  const rankKey = c.rank === "J" ? `rank_J_${deck}` : `rank_${c.rank}`;
  // the rank word in the case a sentence asks for ("даму червей", "двойкой мечей", "erceņu dāmu"); a number is a
  // word where the language says one ("пятёрка мечей": "5 мечей" would read "five swords"), else its digits
  const rank = (form) => tOr(`${rankKey}_${form}`, tOr(rankKey, c.rank));
  const say = (form) => t(`card_${deck}_${c.suit}`, { rank: rank(form) });
  return named(say("nom"), Object.fromEntries(CASES.map((form) => [form, say(form)])));
}

// The rank as printed in a card's corner: the page language's letter for a court card or an Ace (Т/К/Д/В in
// Russian), the number otherwise.
export function rankLetter(rank) {
  return /^\d+$/.test(rank) ? rank : t(`rank_letter_${rank}`);
}

function faceSvg(rank, suit, deck) {
  const sym = suitSymbol(suit, deck);
  const letter = rankLetter(rank).replace(/[<&]/g, "");
  const small = letter.length > 1 ? 'textLength="17" lengthAdjust="spacingAndGlyphs"' : "";
  const centre = COURTS.has(rank)
    ? `<rect x="12" y="24" width="34" height="42" rx="4" class="court-band"/><use href="#fig-${rank}" x="14" y="27" width="30" height="30"/><use href="#${sym}" x="32" y="52" width="13" height="13"/>`
    : `<use href="#${sym}" x="17" y="30" width="29" height="34"/>`;
  return `<svg viewBox="0 0 50 72" aria-hidden="true"><rect x=".75" y=".75" width="48.5" height="70.5" rx="5" class="paper"/>` +
    `<text x="4" y="19" class="rank" ${small}>${letter}</text><use href="#${sym}" x="4" y="22" width="12" height="12"/>${centre}</svg>`;
}

// A card element (a button when ``onTap`` is given) showing ``card`` like "N-cups".
export function cardEl(card, deck, { onTap = null, classes = "" } = {}) {
  const c = parseCard(card);
  const el = document.createElement(onTap ? "button" : "div");
  el.className = `card ${classes}`.trim();
  if (onTap) {
    el.type = "button";
    el.addEventListener("click", onTap);
  }
  if (!c) {
    el.classList.add("unknown");
    el.textContent = "?";
    return el;
  }
  el.dataset.card = card;
  el.classList.add(`suit-${deck}-${c.suit}`);
  if (!onTap) el.setAttribute("role", "img"); // a picture of a card, named by its words
  el.setAttribute("aria-label", cardName(card, deck));
  el.innerHTML = faceSvg(c.rank, c.suit, deck);
  return el;
}

export function backEl(classes = "") {
  const el = document.createElement("div");
  el.className = `card back ${classes}`.trim();
  el.innerHTML = `<svg viewBox="0 0 50 72" aria-hidden="true"><rect x=".75" y=".75" width="48.5" height="70.5" rx="5" fill="url(#back-pattern)" stroke="#fff" stroke-width="2.5"/></svg>`;
  return el;
}

// Sort for display: suits in ``suitOrder``, high ranks first.
export function sortHand(cards, deck, suitOrder) {
  const suits = suitOrder || (deck === "spanish" ? SPANISH_SUITS : FRENCH_SUITS);
  const ranks = deck === "spanish" ? SPANISH_RANKS : FRENCH_RANKS;
  const key = (card) => {
    const c = parseCard(card);
    return c ? suits.indexOf(c.suit) * 100 + ranks.indexOf(c.rank) : 9999;
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}
