// Colour contrast as WCAG 2 measures it, and the nearest colour that still reads on a set of backgrounds.

// "#rgb", "#rrggbb" or "rgb(r, g, b)" as [r, g, b]; null for anything else.
export function parseColour(css) {
  const s = String(css || "").trim();
  let m = /^#([0-9a-f]{3})$/i.exec(s);
  if (m) return [...m[1]].map((c) => parseInt(c + c, 16));
  m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(s);
  if (m) return [0, 2, 4].map((i) => parseInt(m[1].slice(i, i + 2), 16));
  m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/i.exec(s);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

export function hex(rgb) {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
}

function channel(c) {
  const v = c / 255;
  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

export function luminance([r, g, b]) {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// ``colour`` moved step by step towards black (on light backgrounds) or white (on dark ones) until its contrast
// with every one of ``others`` is at least ``min``; ``colour`` itself when it already is.
export function readable(colour, others, min) {
  if (others.every((o) => contrast(colour, o) >= min)) return colour;
  const mean = others.reduce((sum, c) => sum + luminance(c), 0) / others.length;
  const towards = mean > luminance(colour) ? [0, 0, 0] : [255, 255, 255];
  for (let step = 1; step <= 40; step += 1) {
    const k = step / 40;
    const c = colour.map((v, i) => Math.round(v + (towards[i] - v) * k));
    if (others.every((o) => contrast(c, o) >= min)) return c;
  }
  return towards;
}
