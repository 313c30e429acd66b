// A game's words: what its codes (phases, combinations, score reasons, events, the words a seat
// says) and the keys of its view are called, in Chinese and English. They come from the catalogue
// (GET /api/games: each game's "words", declared in the game's own engine module — see "Words" in
// docs/engine.md); the client holds none of its own, so a game shows here with no new code.
//
// Every function takes the words of the table's game first (`wordsOf(game)`); a code the words do
// not name is shown as it is.

import { getLang } from "./i18n.js";

const EMPTY = Object.freeze({});

/** The words of a catalogue entry (empty words when it is unknown). */
export function wordsOf(game) {
  return game?.words ?? EMPTY;
}

/** A [zh, en] pair in the current language, or `fallback`. */
export function pick(pair, fallback = "") {
  if (!pair) return fallback;
  return getLang() === "zh" ? pair[0] : pair[1];
}

/** A template with its {placeholders} filled from `params` (an unknown one stays as it is). */
export function fill(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (params[name] === undefined ? whole : String(params[name])));
}

export const phaseName = (words, phase) => pick(words.phases?.[phase], phase);
export const kindName = (words, kind) => pick(words.kinds?.[kind], kind);
export const reasonName = (words, reason) => pick(words.reasons?.[reason], reason);
export const helpText = (words, phase) => pick(words.help?.[phase], "");

/** The name of a view key the board shows as a figure or a fact (its own key when unnamed). */
export function keyName(words, key) {
  const named =
    words.seat_figures?.[key] ?? words.side_figures?.[key] ?? words.facts?.[key] ?? words.seat_facts?.[key] ?? words.lines?.[key];
  return pick(named, key);
}

/** The name of a fact's value, or the value itself. */
export function valueName(words, key, value) {
  return pick(words.value_names?.[key]?.[value], String(value));
}

/** The name of a play's effective suit (a lead's `suit`), or null when the game names none. */
export function suitName(words, suit) {
  const named = words.suits?.[String(suit)];
  return named ? pick(named) : null;
}

/** The centre's line in a phase where a seat speaks (`mine`: to the seat to move), or null. */
export function turnLine(words, phase, mine, name) {
  const lines = words.turn_lines?.[phase];
  return lines ? fill(pick(lines[mine ? 0 : 1]), { name }) : null;
}

/** The view keys the words present (or hide): any other key of a game's view is shown by its
 * own name. As paiju.words.Words.shown_keys. */
export function shownKeys(words) {
  const keyed = [
    words.auctions, words.roles, words.seat_marks, words.seat_figures, words.facts, words.side_figures,
    words.card_sets, words.seat_facts, words.card_facts, words.lines, words.groups, words.hidden,
  ];
  const out = new Set(keyed.flatMap((m) => Object.keys(m ?? {})));
  for (const key of Object.values(words.figure_limits ?? {})) out.add(key);
  for (const key of Object.values(words.trick ?? {})) out.add(key);
  return out;
}

/** The words said so far in the auction of command `type`, as the view holds them. */
export function auctionWords(words, view, type) {
  const key = Object.keys(words.auctions ?? {}).find((k) => words.auctions[k] === type);
  return key ? (view?.[key] ?? []).map(([, word]) => word) : [];
}

/** A word of command `type` as said after the `earlier` words of its auction: `form` "button"
 * (what to say) or "badge" (what was said). An answer — a word named otherwise once an earlier
 * word differs from it (a pass after a bid declines that bid) — takes its own name; so does a word
 * named for the `phase` it is said in. */
export function spoken(words, type, word, earlier = [], form = "button", phase = null) {
  const answer = words.answers?.[type]?.[word];
  const inPhase = phase ? words.phase_commands?.[phase]?.[type]?.[word] : null; // a word two rounds share
  const said = inPhase ?? (answer && earlier.some((w) => w !== word) ? answer : words.commands?.[type]?.[word]);
  return said ? pick(said[form], word) : word;
}

/** The label of a command whose value is a card, or the card alone. */
export function cardWord(words, type, card, form = "button") {
  const said = words.commands?.[type]?.[""];
  return said ? fill(pick(said[form]), { card }) : card;
}
