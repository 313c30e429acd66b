// The table's sounds, made in the page with Web Audio (no sound file): a play, a pass, a big play
// (a bomb), your turn, the end of a hand; and its voice (the browser's own speech synthesis, no
// sound file either): the calls (管上, a big play's kind, 不要, 报单) and the 快捷语. One mute switch silences
// both, kept in localStorage ("paiju.mute").

const KEY = "paiju.mute";
let muted = localStorage.getItem(KEY) === "1";
let context = null;
const listeners = new Set();

// Each sound: a few notes [frequency Hz, start s, length s, wave, gain].
const SOUNDS = {
  play: [[660, 0, 0.07, "triangle", 0.25]],
  pass: [
    [330, 0, 0.06, "sine", 0.18],
    [262, 0.07, 0.08, "sine", 0.15],
  ],
  bomb: [
    [110, 0, 0.35, "sawtooth", 0.3],
    [82, 0.02, 0.4, "square", 0.18],
    [55, 0.05, 0.45, "sine", 0.35],
  ],
  turn: [
    [784, 0, 0.08, "sine", 0.22],
    [1047, 0.09, 0.12, "sine", 0.22],
  ],
  end: [
    [523, 0, 0.12, "triangle", 0.22],
    [659, 0.12, 0.12, "triangle", 0.22],
    [784, 0.24, 0.22, "triangle", 0.22],
  ],
};

export const SOUND_NAMES = Object.keys(SOUNDS);

export function isMuted() {
  return muted;
}

export function setMuted(value) {
  muted = !!value;
  localStorage.setItem(KEY, muted ? "1" : "0");
  for (const listener of listeners) listener(muted);
}

export function onMute(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function audioContext() {
  if (context) return context;
  const Ctx = window.AudioContext ?? window.webkitAudioContext;
  if (!Ctx) return null;
  try {
    context = new Ctx();
  } catch {
    context = null;
  }
  return context;
}

// A running context renders silence on an audio thread of its own, all the time: it is suspended
// a moment after the last note has ended, and resumed for the next sound.
let quietTimer = null;

function quietAfter(ctx, seconds) {
  clearTimeout(quietTimer);
  quietTimer = setTimeout(() => {
    if (ctx.state === "running") ctx.suspend().catch(() => {});
  }, seconds * 1000);
}

// A browser starts audio only after a gesture: wake the context on the first one (the page may
// then resume it without one).
for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(
    type,
    () => {
      const ctx = audioContext();
      if (ctx?.state !== "suspended") return;
      ctx.resume().then(() => quietAfter(ctx, 1), () => {});
    },
    { passive: true },
  );
}

/** Play a sound by name (see SOUNDS), unless muted. */
export function sound(name) {
  const notes = SOUNDS[name];
  if (!notes || muted) return;
  const ctx = audioContext();
  if (!ctx || ctx.state === "closed") return;
  // suspended, or being suspended by a quietAfter that fired just now: its clock waits meanwhile
  ctx.resume().catch(() => {});
  const now = ctx.currentTime + 0.01;
  for (const [freq, start, length, wave, gain] of notes) {
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.type = wave;
    osc.frequency.setValueAtTime(freq, now + start);
    amp.gain.setValueAtTime(0.0001, now + start);
    amp.gain.exponentialRampToValueAtTime(gain, now + start + 0.01);
    amp.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(amp).connect(ctx.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
  quietAfter(ctx, Math.max(...notes.map(([, start, length]) => start + length)) + 1);
}

/** Say `text` aloud in `lang` ("zh" or "en") with the browser's speech synthesis, unless muted
 * (a browser without it, or without a voice for the language, says nothing). A new call while
 * older ones still wait clears them: a call is news only as it happens. */
export function speak(text, lang) {
  const voice = window.speechSynthesis;
  if (muted || !text || !voice || typeof SpeechSynthesisUtterance === "undefined") return;
  if (voice.pending && voice.speaking) voice.cancel();
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = lang === "zh" ? "zh-CN" : "en-US";
  utterance.rate = 1.15;
  voice.speak(utterance);
}
