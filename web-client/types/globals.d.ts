// What the pages find on window beyond the DOM's types, for the type check (tsconfig.json):
// Safari's prefixed AudioContext.
interface Window {
  webkitAudioContext?: typeof AudioContext;
}
