// Translated strings come from the page (rendered by the server through gettext); JS only looks them up.

let strings = {};
try {
  strings = JSON.parse(document.getElementById("i18n")?.textContent || "{}");
} catch {
  strings = {};
}

export function t(key, params = {}) {
  const text = Object.prototype.hasOwnProperty.call(strings, key) ? strings[key] : key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// The translation of ``key`` if the page has one, else ``fallback`` (text that came from the server).
export function tOr(key, fallback) {
  return Object.prototype.hasOwnProperty.call(strings, key) ? t(key) : String(fallback);
}
