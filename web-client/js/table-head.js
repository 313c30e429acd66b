// The top of a live table: its head (the game and variant, the hand shown, the table, the house
// rules and the clock, the rules, the invite and watch links, the score table, leaving) with the
// transport's state, and the waiting room shown until the table deals (who sits where, a seat to
// take, the owner's controls). Each is drawn again only when what it shows changed.

import { seatLabel, seatName } from "./seating.js";
import { handOver } from "./table-phases.js";
import { clockText } from "./clock.js";
import { clear, h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { gameName, houseRulesText, variantName, variantOf } from "./catalog.js";
import { endPracticeButton, leaveMatchButton, rematchWaiting, shareButtons, waitingControls } from "./room.js";
import { openScoreTable } from "./scores.js";

/** @typedef {import("./table-state.js").TableState} TableState */
/** @typedef {{state: TableState, game: any, ctx: () => any}} HeadModel */

/** @param {any[]} a @param {any[]} b */
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The head of table `tableId` (`watch`: opened to watch; `source`: a practice table's, else null).
 * @param {string} tableId @param {boolean} watch @param {import("./table.js").TableSource | null} source */
export function createHead(tableId, watch, source) {
  const title = h("h1.table-title");
  const sub = h("p.table-sub");
  const conn = h("span.conn", { role: "status" });
  const back = h("a.back", { href: "#/" });
  const el = h("div.table-head", null, back, h("div.table-heading", null, title, sub), conn);
  /** @type {any[]} */
  let drawn = [];

  /** @param {HeadModel} model */
  function render({ state: s, game, ctx }) {
    conn.textContent = { connecting: t("connecting"), open: "", closed: t("disconnected") }[s.link];
    conn.dataset.state = s.link;
    // while a hand's sheet is up the next deal is already committed to: the head names the hand shown
    const shownHand = handOver(s.view) ? s.view.last_hand.hand_no : s.view?.hand_no;
    const dealt = !!s.view?.last_hand || (s.view?.counts?.length ?? 0) > 0; // the match is on
    const inputs = [game, s.config, s.meta, s.seat, shownHand, dealt, getLang()];
    if (same(inputs, drawn)) return;
    drawn = inputs;
    const variant = variantOf(game, s.config?.variant);
    title.textContent = `${gameName(game) || s.config?.game || ""} · ${variantName(variant)}`;
    const bits = [];
    if (shownHand) bits.push(t("handNo", { n: shownHand }));
    bits.push(source ? t("practiceTable") : `${t("table")} ${tableId.slice(0, 8)}`);
    if (s.seat === null) bits.push(t("spectating"));
    const rules = houseRulesText(variant, s.config?.options);
    const clockLine = clockText(game, s.meta?.clock);
    clear(
      sub,
      bits.join(" · "),
      rules ? [" · ", h("span.house-rules-line#house-rules-line", null, rules)] : null,
      clockLine ? [" · ", h("span.clock-line#clock-line", null, clockLine)] : null,
      " ",
      h("a.linkish#table-rules", { href: `#/rules/${s.config?.game ?? ""}?table=${tableId}` }, t("rules")),
      " ",
      source ? null : shareButtons(tableId, s.meta),
      dealt ? [" ", h("button.linkish#open-scores", { type: "button", on: { click: () => openScoreTable(tableId, ctx()) } }, t("scoresButton"))] : null,
      source ? [" ", endPracticeButton(source)] : null,
      !source && s.seat !== null && !watch && s.meta?.status === "playing" ? [" ", leaveMatchButton(tableId)] : null,
    );
    back.textContent = `← ${t("backToLobby")}`;
  }

  return { el, render, forget: () => (drawn = []) };
}

/**
 * The waiting room of table `tableId`, until it deals. `sit(seat)`: take an empty seat;
 * `fillBots(event, level)`: the owner fills the empty seats with bots at a level; `game()`: the
 * catalogue's entry of the table's game (its bots' levels).
 * @param {string} tableId @param {{watch: boolean, invited: boolean, sit: (seat: number) => void, fillBots: (e: Event, level: string) => void, game: () => any}} options
 */
export function createWaiting(tableId, { watch, invited, sit, fillBots, game }) {
  const el = h("section.waiting-panel#waiting");
  /** @type {any[]} */
  let drawn = [];

  /** Draw the room; whether it is open (the table waits for players).
   * @param {{state: TableState, ctx: any}} model @returns {boolean} */
  function render({ state: s, ctx }) {
    const dealt = (s.view?.counts?.length ?? 0) > 0;
    const status = s.meta?.status;
    const open = status === "open" && !dealt;
    const inputs = [status, open, s.meta, s.seat, s.token, getLang(), game()];
    if (same(inputs, drawn)) return open;
    drawn = inputs;
    el.hidden = status !== "closed" && !open;
    if (status === "closed") clear(el, h("h2", null, t("tableClosed")), h("a.button", { href: "#/" }, t("backToLobby")));
    if (!open) return false;
    const seats = s.meta?.seats ?? [];
    const seatItem = (/** @type {any} */ seat) =>
      h(
        `li.${seat.kind}`,
        { dataset: { seat: seat.seat } },
        h("span.avatar", null, String(seat.seat + 1)),
        h("span", null, seat.kind === "empty" ? t("emptySeat") : seatLabel(ctx, seat.seat)),
        seat.kind === "bot" ? h("span.badge.bot", null, t("bot")) : null,
        seat.waiting ? h("span.badge.not-ready", null, t("notReady")) : null,
        seat.kind === "empty" && s.seat === null && !watch ? h("button.button.small", { type: "button", on: { click: () => sit(seat.seat) } }, t("sitHere")) : null,
      );
    clear(
      el,
      h("h2", null, t("waitingPlayers")),
      h("p.muted", null, t("waitingHint")),
      h("ul.waiting-seats", null, seats.map(seatItem)),
      rematchWaiting(s.meta, (seat) => seatName(ctx, seat)),
      waitingControls({
        tableId,
        meta: s.meta,
        seated: s.seat !== null || !!s.token,
        watch,
        invited,
        sit,
        fillBots,
        game: game(),
        done: () => {
          location.hash = "#/";
        },
      }),
    );
    return true;
  }

  return { el, render, forget: () => (drawn = []) };
}
