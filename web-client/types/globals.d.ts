// What the pages put on window, for the type check (tsconfig.json): main.js's and table.js's
// window.paiju, audio.js's log of sounds, and Safari's prefixed AudioContext.
interface Window {
  paiju: any;
  paijuAudioLog: any[];
  webkitAudioContext?: typeof AudioContext;
}
