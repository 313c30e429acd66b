// The words a seat may say instead of playing cards (in an auction, a card to call): a word's
// value is the move's one field besides its type and seat (table-queries.js `wordField`). A card
// becomes a card picker, anything else a button per legal move, each named by the game's words
// (words.js); a click sends the engine's own move through the table's `send`, as a play is.

import { cardText, isRed, rankLabel } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { wordField } from "./table-queries.js";
import { auctionWords, cardWord, spoken } from "./words.js";

const CARD_CODE = /^(?:[3-9TJQKA2][SHCD]|BJ|RJ)$/;

/** @typedef {{view: any, words: any, pending: boolean, picked: string | null, pick: (card: string) => void, send: (move: any) => void}} WordsContext */

/** Whether the words of these moves are cards (a card to name): then a card picker offers them.
 * @param {any[]} moves */
const namesCards = (moves) => moves.every((m) => CARD_CODE.test(String(m[wordField(m)])));

/** One button per legal word, the engine's own move behind each, named by the game's words as
 * said after the auction so far (data-<field>: the word).
 * @param {any[]} moves @param {WordsContext} ctx */
function wordButtons(moves, ctx) {
  const type = moves[0].type;
  const field = wordField(moves[0]);
  const earlier = auctionWords(ctx.words, ctx.view, type);
  return h(
    "div.word-buttons",
    null,
    moves.map((move) =>
      h(
        `button.button.word${move[field] === "pass" ? "" : ".primary"}`,
        { type: "button", dataset: { [field]: move[field] }, disabled: ctx.pending, on: { click: () => ctx.send(move) } },
        spoken(ctx.words, type, move[field], earlier, "button", ctx.view?.phase),
      ),
    ),
  );
}

/** The cards the seat may name (the engine lists them strongest first), grouped by rank; a
 * pick, then a confirm named by the game's words.
 * @param {any[]} moves @param {WordsContext} ctx */
function cardPicker(moves, ctx) {
  const field = wordField(moves[0]);
  const ranks = new Map();
  for (const move of moves) {
    const rank = move[field].slice(0, -1);
    if (!ranks.has(rank)) ranks.set(rank, []);
    ranks.get(rank).push(move);
  }
  const picked = moves.find((m) => m[field] === ctx.picked) ?? null;
  return h(
    "div.call-picker",
    null,
    h(
      "div.call-grid",
      { role: "listbox", "aria-label": t("callPick") },
      [...ranks.values()].map((group) =>
        h(
          "div.call-rank",
          { dataset: { rank: rankLabel(group[0][field]) } },
          group.map((move) =>
            h(
              `button.call-card${isRed(move[field]) ? ".red" : ""}`,
              {
                type: "button",
                role: "option",
                dataset: { card: move[field] },
                "aria-selected": move[field] === ctx.picked ? "true" : "false",
                on: { click: () => ctx.pick(move[field]) },
              },
              cardText(move[field]),
            ),
          ),
        ),
      ),
    ),
    h(
      "button.button.primary#call-confirm",
      { type: "button", disabled: !picked || ctx.pending, on: { click: () => ctx.send(picked) } },
      picked ? cardWord(ctx.words, picked.type, cardText(picked[field])) : t("callPick"),
    ),
  );
}

/** The controls for these words (all of one type): a card picker or a row of buttons.
 * @param {any[]} moves @param {WordsContext} ctx */
export const wordControls = (moves, ctx) => (namesCards(moves) ? cardPicker : wordButtons)(moves, ctx);
