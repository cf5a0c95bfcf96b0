// Translated strings come from the page (rendered by the server through gettext); JS only looks them up.
// A plural key holds every form of its language's plural rule, and the page's table of plural indices picks
// one for a count. The viewer's own name is a marked string (`you()`), so t() can choose a sentence written
// for "you" ("You lead", "{from} gives you 2 cards") instead of pasting "You" into a sentence about a name.

function readJson(id, fallback) {
  try {
    return JSON.parse(document.getElementById(id)?.textContent || "null") ?? fallback;
  } catch {
    return fallback;
  }
}

const strings = { ...readJson("i18n", {}), ...readJson("i18n-coach", {}), ...readJson("i18n-options", {}) };
const pluralIndices = readJson("i18n-plural", []);

// The page's language and the languages it can be shown in ({code: endonym}, in the server's order).
export const lang = document.documentElement.lang || "en";
export const languages = Object.fromEntries(readJson("i18n-languages", [["en", "English"]]));

const has = (key) => Object.prototype.hasOwnProperty.call(strings, key);

// The index of the plural form for ``n`` in the page's language (the table covers 0..199; beyond, n % 100 + 100).
export function pluralIndex(n) {
  const k = Math.abs(Math.trunc(Number(n))) || 0;
  const index = pluralIndices[k < pluralIndices.length ? k : (k % 100) + 100];
  return index ?? (k === 1 ? 0 : 1);
}

// The viewer's name in sentences: a string that says "You" in the page's language and is marked as the viewer.
class ViewerName extends String {}

export function you() {
  return new ViewerName(has("you") ? strings.you : "You");
}

export function isYou(value) {
  return value instanceof ViewerName;
}

// The key to read: ``key_you_<param>`` or ``key_you`` when a person in ``params`` is the viewer and the page has one.
function variant(key, params) {
  const mine = Object.keys(params).filter((name) => isYou(params[name]));
  for (const name of mine) if (has(`${key}_you_${name}`)) return `${key}_you_${name}`;
  return mine.length && has(`${key}_you`) ? `${key}_you` : key;
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

export function t(key, params = {}) {
  const chosen = variant(key, params);
  let text = has(chosen) ? strings[chosen] : key;
  if (Array.isArray(text)) text = text[Math.min(pluralIndex(params.n), text.length - 1)] ?? key;
  return fill(text, params);
}

// ``t`` for a count: the plural form of ``key`` for ``n`` ("1 card", "2 cards"; "1 карта", "2 карты", "5 карт").
export function tn(key, n, params = {}) {
  return t(key, { ...params, n });
}

// A sentence about several people ("{names} share the win"): "You and {names} …" (``key_you``) when the viewer
// is among ``names`` (names as the table gives them, the viewer's marked).
export function tNames(key, names) {
  const others = names.filter((name) => !isYou(name));
  const chosen = others.length < names.length && has(`${key}_you`) ? `${key}_you` : key;
  return t(chosen, { names: (chosen === key ? names : others).join(", ") });
}

// The translation of ``key`` if the page has one, else ``fallback`` (text that came from the server).
export function tOr(key, fallback) {
  return has(key) ? t(key) : String(fallback);
}
