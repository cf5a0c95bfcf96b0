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

const strings = {
  ...readJson("i18n", {}), ...readJson("i18n-coach", {}), ...readJson("i18n-options", {}), ...readJson("i18n-forms", {}),
};
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

// A card's or a suit's name put into a sentence, with its forms by case (``{suit:gen}``: "пик"); the sentence's
// translation asks for the form it needs. A form the name lacks reads as the name.
export const CASES = ["nom", "gen", "dat", "acc", "ins", "loc"];

export class Named extends String {
  constructor(text, forms = {}) {
    super(text);
    this.forms = forms;
  }
}

export function named(text, forms = {}) {
  return new Named(text, forms);
}

// Korean particles (engine/words.py says the same): the form after a final consonant and the one after a vowel;
// 으로/로 also takes 로 after ㄹ. A word's last sound is its last Hangul syllable's final consonant, or how a digit,
// a Latin letter or a suit sign is read aloud (일, 이, 삼 …; 에이, 엘, 엠, 엔 …; 하트, 다이아몬드, 클로버, 스페이드).
const PARTICLES = {
  이: ["이", "가"], 가: ["이", "가"], 을: ["을", "를"], 를: ["을", "를"], 은: ["은", "는"], 는: ["은", "는"],
  과: ["과", "와"], 와: ["과", "와"], 으로: ["으로", "로"], 로: ["으로", "로"], 이나: ["이나", "나"],
  이라서: ["이라서", "라서"], 이에요: ["이에요", "예요"], 이고: ["이고", "고"], 이야: ["이야", "야"],
};
const RIEUL = 8;
const DIGIT_ENDS = { 0: 21, 1: RIEUL, 2: 0, 3: 16, 4: 0, 5: 0, 6: 1, 7: RIEUL, 8: RIEUL, 9: 0 };
const TENS_ENDS = { 1: 17, 2: 1, 3: 4, 4: 4 };
const LETTER_ENDS = { L: RIEUL, M: 16, N: 4, R: RIEUL };
const SKIPPED = /[\s)\]}»”’'".!?\u2068\u2069]+$/;

export function finalConsonant(word) {
  const text = String(word).replace(SKIPPED, "");
  if (!text) return 0;
  const last = text[text.length - 1];
  const code = last.charCodeAt(0);
  if (code >= 0xac00 && code <= 0xd7a3) return (code - 0xac00) % 28;
  if (/\d/.test(last)) {
    const digits = /\d+$/.exec(text)[0];
    const zeros = digits.length - digits.replace(/0+$/, "").length;
    if (zeros && /[1-9]/.test(digits)) return TENS_ENDS[zeros] ?? 4;
    return DIGIT_ENDS[last];
  }
  return LETTER_ENDS[last.toUpperCase()] ?? 0; // every other letter's name, and the suit signs, end in a vowel
}

export function particle(word, which) {
  const [afterConsonant, afterVowel] = PARTICLES[which];
  const end = finalConsonant(word);
  if (afterConsonant === "으로") return end === 0 || end === RIEUL ? afterVowel : afterConsonant;
  return end ? afterConsonant : afterVowel;
}

// The form ``form`` of a value a sentence asks for: a Korean particle after it, or a case a Named has.
function formOf(value, form) {
  const text = String(value);
  if (Object.prototype.hasOwnProperty.call(PARTICLES, form)) return text + particle(text, form);
  const forms = value instanceof Named ? value.forms : {};
  return Object.prototype.hasOwnProperty.call(forms, form) ? String(forms[form]) : text;
}

// A person's name inside a sentence, isolated (U+2068 … U+2069) so a right-to-left name or one holding bidi
// marks cannot reorder the words after it; the parameters that carry a person's name are these.
const FSI = "\u2068";
const PDI = "\u2069";
const PEOPLE = new Set(["name"]);
const IN_BDI = /^\u0001\d+\u0002$/; // a place the caller fills with a <bdi> of its own (table.js's withNames)

export function isolate(name) {
  const text = String(name);
  return (text.startsWith(FSI) && text.endsWith(PDI)) || IN_BDI.test(text) ? text : `${FSI}${text}${PDI}`;
}

function fill(text, params) {
  return text.replace(/\{(\w+)(?::([^{}]+))?\}/g, (whole, name, form) => {
    if (!(name in params)) return whole;
    const said = form === undefined ? String(params[name]) : formOf(params[name], form);
    return PEOPLE.has(name) && !isYou(params[name]) ? isolate(said) : said; // "You" is the page's own word
  });
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
  return t(chosen, { names: (chosen === key ? names : others).map(isolate).join(", ") });
}

// The translation of ``key`` if the page has one, else ``fallback`` (text that came from the server).
export function tOr(key, fallback) {
  return has(key) ? t(key) : String(fallback);
}
