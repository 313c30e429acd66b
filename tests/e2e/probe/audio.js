// The browser tests' ear on the table's sounds (never shipped: loaded in place of the page's
// /js/audio.js by an import map that tests/e2e/probe.py puts in the tests' pages only). It is the
// app's own audio module, imported under another URL; every sound asked for is logged in
// `window.__sounds` as {sound, muted, voiced}: `muted` that the switch was off, `voiced` that its
// notes went to Web Audio (oscillators were made for it).
import * as real from "./audio.js#real";

export * from "./audio.js#real";

window.__sounds = [];
let oscillators = 0;
const Context = window.AudioContext ?? window.webkitAudioContext;
if (Context) {
  const make = Context.prototype.createOscillator;
  Context.prototype.createOscillator = function (...args) {
    oscillators += 1;
    return make.apply(this, args);
  };
}

export function sound(name) {
  const before = oscillators;
  const muted = real.isMuted();
  real.sound(name);
  window.__sounds.push({ sound: name, muted, voiced: oscillators > before });
}
