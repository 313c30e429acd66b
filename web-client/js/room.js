// The card room around a table (docs/services.md): the links to share (邀请 copies a seat link,
// `#/table/<id>?join=1`, that seats a friend under his own name; the watch link is separate), the
// owner's controls before the start (fill the empty seats with bots, close the table: only the
// browser that holds the table's owner token sees them, and never on the watch page), leaving a
// seat (before the start it opens again; during the match 托管 plays it to the end, after a
// confirm, and the page becomes the watch page), and 再来一局 at the end of a match (the same seats at a new linked table,
// with the same seat tokens).

import * as api from "./api.js";
import { levelSelect } from "./catalog.js";
import { countdown } from "./turn-clocks.js";
import { h } from "./dom.js";
import { both, t } from "./i18n.js";
import { copyText, toast } from "./ui.js";

/** The seat link a friend opens to sit down at this table. */
export const inviteLink = (tableId) => `${location.origin}/#/table/${tableId}?join=1`;
export const watchLink = (tableId) => `${location.origin}/#/watch/${tableId}`;

async function copy(link, message) {
  if (await copyText(link)) toast(message);
}

/** The head's share buttons: 邀请 while a seat is open, and the watch link. */
export function shareButtons(tableId, meta) {
  const open = meta?.status === "open" && meta.seats.some((seat) => seat.kind === "empty");
  return [
    open
      ? h(
          "button.linkish#invite-link",
          { type: "button", title: t("inviteTitle"), on: { click: () => copy(inviteLink(tableId), t("inviteCopied")) } },
          t("invite"),
        )
      : null,
    open ? " " : null,
    h("button.linkish#watch-link", { type: "button", on: { click: () => copy(watchLink(tableId), t("copied")) } }, t("copyWatchLink")),
  ];
}

/** Whether this page may act as the table's owner: it holds the owner token, and is not the
 * watch page. */
export const isOwner = (tableId, watch) => !watch && api.ownerToken(tableId) !== null;

// the level the owner last chose to fill a table's seats with, by table (kept in this page)
const fillLevels = new Map();

/** The waiting panel's room controls, under its seats. `r`: {tableId, meta, game, seated, watch,
 * invited, sit(seat|null), fillBots(event, level), done()} — `game` the catalogue's entry (its bots'
 * levels to choose from), `done` once the page should go (left, closed). */
export function waitingControls(r) {
  const empty = r.meta.seats.some((seat) => seat.kind === "empty");
  const out = [];
  if (!r.seated && !r.watch && empty) {
    // my name here, for the 坐这里 buttons and the invite's 入座 (kept in this browser)
    const name = h("input#seat-name", {
      name: "name",
      value: api.playerName(),
      maxLength: 32,
      autocomplete: "nickname",
      "aria-label": t("nickname"),
      on: { input: (e) => api.setPlayerName(e.target.value) },
    });
    out.push(
      h(
        `div.invite-box${r.invited ? ".invited" : ""}#invite-box`,
        null,
        r.invited ? h("h3", null, t("invitedTitle")) : null,
        r.invited ? h("p.muted", null, t("invitedHint")) : null,
        h(
          "div.invite-row",
          null,
          h("label", null, h("span", null, t("nickname")), name),
          h("button.button.primary#invite-sit", { type: "button", on: { click: () => r.sit(null) } }, t("sitDown")),
        ),
      ),
    );
  }
  const tools = [];
  if (isOwner(r.tableId, r.watch) && empty) {
    const level = levelSelect(r.game, "fill-level");
    // the choice outlives the room's redraws (a seat taken meanwhile draws it again)
    if (fillLevels.get(r.tableId)) level.value = fillLevels.get(r.tableId);
    level.addEventListener("change", () => fillLevels.set(r.tableId, level.value));
    tools.push(
      h("label.fill-level", null, h("span", null, t("botLevel")), level),
      h("button.button.primary#fill-bots", { type: "button", on: { click: (e) => r.fillBots(e, level.value) } }, t("fillBots")),
    );
  }
  if (isOwner(r.tableId, r.watch)) {
    tools.push(h("button.button.ghost#close-table", { type: "button", on: { click: () => closeTable(r) } }, t("closeTable")));
  }
  if (r.seated && !r.watch) {
    tools.push(h("button.button.ghost#leave-seat", { type: "button", on: { click: () => leave(r) } }, t("leaveSeat")));
  }
  if (tools.length) out.push(h("div.room-tools", null, tools));
  return out;
}

async function closeTable(r) {
  if (!window.confirm(t("closeConfirm"))) return;
  try {
    await api.closeTable(r.tableId);
    toast(t("tableClosed"));
    r.done();
  } catch (err) {
    toast(both(err), "error");
  }
}

async function leave(r) {
  try {
    await api.leaveSeat(r.tableId);
    toast(t("seatLeft"));
    r.done();
  } catch (err) {
    toast(both(err), "error");
  }
}

/** 离座 during the match, for a seated player: after a confirm, 托管 plays the seat to the end
 * of the match and this page becomes the table's watch page. */
export function leaveMatchButton(tableId) {
  return h(
    "button.linkish#leave-match",
    {
      type: "button",
      title: t("leaveMatchConfirm"),
      on: {
        click: async () => {
          if (!window.confirm(t("leaveMatchConfirm"))) return;
          try {
            await api.leaveSeat(tableId);
            toast(t("seatLeft"));
            location.hash = `#/watch/${tableId}`;
          } catch (err) {
            toast(both(err), "error");
          }
        },
      },
    },
    t("leaveSeat"),
  );
}

/** 结束练习: a practice match given up (after a confirm); the page goes back to the lobby.
 * @param {import("./table.js").TableSource} source */
export function endPracticeButton(source) {
  const click = async () => {
    if (window.confirm(t("practiceEndConfirm"))) await source.leave();
  };
  return h("button.linkish#end-practice", { type: "button", on: { click } }, t("practiceEnd"));
}

/** A button that asks the server something: disabled while it asks; a refusal is shown and the
 * button enabled again. */
function askingButton(tag, label, ask) {
  const click = async (e) => {
    e.target.disabled = true;
    try {
      await ask();
    } catch (err) {
      toast(both(err), "error");
      e.target.disabled = false;
    }
  };
  return h(tag, { type: "button", on: { click } }, label);
}

/** The match-over sheet's 再来一局 (for a seated player), and a line when others already have.
 * `offer`: the rematch table's entry when another player has pressed and my seat there waits
 * for me (`{table, seat, declined, onDecline}`): then the sheet asks, with the time left. */
export function rematchControls(tableId, meta, seated, offer = null) {
  if (seated && offer && !offer.declined && offer.table.seats[offer.seat]?.waiting) return rematchOffer(tableId, offer);
  const line = offer?.declined ? t("rematchDeclined") : meta?.rematch ? t("rematchJoin") : null;
  return [seated ? rematchButton(tableId) : null, line && seated ? h("p.muted.rematch-hint", null, line) : null];
}

/** 再来一局: my seat at the rematch table, where the page goes. */
function rematchButton(tableId) {
  return askingButton("button.button.primary#rematch", t("rematch"), async () => {
    const out = await api.rematch(tableId);
    location.hash = `#/table/${out.table}`;
  });
}

/** The question put to a player whose partners pressed 再来一局: who asks, the time left before
 * the rematch table lapses, and 再来一局 or 不了 (不了 gives up my seat there). */
function rematchOffer(tableId, offer) {
  const asking = offer.table.seats.filter((seat) => seat.kind === "human" && !seat.waiting && seat.seat !== offer.seat);
  const names = asking.map((seat) => seat.name ?? t("seatN", { n: seat.seat + 1 })).join(t("listSep"));
  const decline = askingButton("button.button#rematch-decline", t("rematchDecline"), async () => {
    await api.declineRematch(tableId, offer.table.id);
    offer.onDecline();
  });
  return [
    h(
      "div.rematch-offer#rematch-offer",
      { role: "alert" },
      h("p", null, t("rematchOffer", { names: names || t("someone") })),
      offer.table.expires_at ? countdown(offer.table.expires_at * 1000, "rematchExpires") : null,
      h("div.rematch-offer-buttons", null, rematchButton(tableId), decline),
    ),
  ];
}

/** A rematch table's waiting line: who has not pressed 再来一局 yet (empty when nobody). */
export function rematchWaiting(meta, nameOf) {
  const waiting = (meta?.seats ?? []).filter((seat) => seat.waiting);
  if (!waiting.length) return null;
  return h("p.rematch-waiting", null, t("rematchWaiting", { names: waiting.map((seat) => nameOf(seat.seat)).join(t("listSep")) }));
}
