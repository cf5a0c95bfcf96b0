// Sound, on at a low level until the player turns it off with the speaker in the table bar (remembered on this
// device): short tones made with WebAudio, no audio files. Browsers let a page start audio only from a tap, so the
// AudioContext is made by the first tap on the page (or by the tap that turns sound back on).

import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "cardroom.sound";
const GAP = 0.07; // seconds between the starts of two cues, so a burst of moves stays a run of separate blips
const LAG = 0.6; // a cue that would start later than this (a long burst) is dropped
const LEVEL = 0.35; // every cue's loudness: quiet enough to leave on in a room
// Each cue: [frequency Hz, start s, length s, peak gain] per note, and the oscillator's wave.
const CUES = {
  card: { wave: "triangle", notes: [[520, 0, 0.06, 0.18]] },
  turn: { wave: "sine", notes: [[660, 0, 0.14, 0.22], [880, 0.13, 0.22, 0.22]] },
  trick: { wave: "triangle", notes: [[880, 0, 0.1, 0.2], [1175, 0.08, 0.1, 0.2], [1568, 0.16, 0.26, 0.2]] },
};

let audio = null;
let nextAt = 0;

export function isSoundOn() {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

function remember(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // private mode: sound stays as chosen until the page closes
  }
}

// The AudioContext, made (or resumed) only from inside a tap.
function wake() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!audio && Context) audio = new Context();
  if (audio && audio.state === "suspended") audio.resume();
  return audio;
}

// Sound (on unless turned off) starts with the first tap anywhere on the page.
function wakeOnFirstTap() {
  const onTap = () => {
    document.removeEventListener("pointerdown", onTap, true);
    document.removeEventListener("keydown", onTap, true);
    if (isSoundOn()) wake();
  };
  document.addEventListener("pointerdown", onTap, true);
  document.addEventListener("keydown", onTap, true);
}
wakeOnFirstTap();

function note(ctx, wave, [freq, at, length, peak]) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = wave;
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak * LEVEL, at + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

// Play a cue: "card" (a card played), "turn" (it became your turn), "trick" (you took the trick). Silent while
// sound is off, before the first tap, or while the page is hidden.
export function cue(name) {
  const kind = CUES[name];
  if (!kind || !audio || audio.state !== "running" || !isSoundOn() || document.hidden) return;
  const start = Math.max(audio.currentTime + 0.01, nextAt);
  if (start > audio.currentTime + LAG) return;
  for (const n of kind.notes) note(audio, kind.wave, [n[0], start + n[1], n[2], n[3]]);
  nextAt = start + GAP;
}

const ICON_ON = '<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>' +
  '<path d="M16 8.5a4.5 4.5 0 0 1 0 7M18.5 6a8 8 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" ' +
  'stroke-linecap="round"/>';
const ICON_OFF = '<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>' +
  '<path d="M16.5 9.5l5 5M21.5 9.5l-5 5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';

// The speaker toggle for the table bar: on at first; one tap turns sound off, another back on (with a blip).
export function soundButton() {
  const btn = h("button", { class: "icon-btn sound-btn", type: "button", "aria-label": t("sound"), title: t("sound") });
  const show = () => {
    const on = isSoundOn();
    btn.setAttribute("aria-pressed", String(on));
    btn.classList.toggle("on", on);
    btn.innerHTML = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">${on ? ICON_ON : ICON_OFF}</svg>`;
  };
  btn.addEventListener("click", () => {
    const on = !isSoundOn();
    remember(on);
    show();
    if (on && wake()) {
      if (audio.state === "running") cue("card");
      else audio.resume().then(() => cue("card"), () => {});
    }
  });
  show();
  return btn;
}
