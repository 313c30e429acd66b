// The lobby's history of finished games: newest first, a page at a time, searched by game and by
// player; each to replay, to export, or to audit here (`paiju audit` run by the engine in this
// browser, its verdict linked to the verify page).

import * as api from "./api.js";
import { botChip, gameName, tableGameName } from "./catalog.js";
import { $, clear, h } from "./dom.js";
import { auditLog } from "./engine.js";
import { getLang, t } from "./i18n.js";
import { timeAgo, toast } from "./ui.js";

const HISTORY_PAGE = 10;

/** The history drawn in the lobby's `view` (its #finished-list and #history-more); `games()`: the
 * catalogue as loaded, `gone()`: whether the lobby was left (an answer then draws nothing). */
export function createHistory(view, { games, gone }) {
  // its search, the rows loaded so far, whether a next page may follow
  const hist = { game: "", player: "", rows: null, more: false, audits: {} };
  let historyQuery = 0; // the latest search: an older answer arriving late is dropped

  /** The first page of the history for the search as it is (or, `next`, the page after the
   * rows loaded); drawn when it comes, unless a newer search was started meanwhile. */
  async function searchHistory(next) {
    const query = ++historyQuery;
    const before = next && hist.rows?.length ? hist.rows.at(-1).finished_at : null;
    const rows = await api.history({ game: hist.game, player: hist.player, before, pageSize: HISTORY_PAGE });
    if (query !== historyQuery || gone()) return;
    hist.rows = next ? [...(hist.rows ?? []), ...rows] : rows;
    hist.more = rows.length === HISTORY_PAGE;
  }

  /** The search: a game picked, or a player's name typed (the search starts as typing pauses). */
  function renderHistorySearch() {
    let typing = null;
    const search = async () => {
      try {
        await searchHistory(false);
        renderHistory();
      } catch (err) {
        toast(`${t("errorPrefix")}${getLang() === "zh" ? err.zh : err.en}`, "error");
      }
    };
    return h(
      "form.history-search#history-search",
      { role: "search", on: { submit: (e) => { e.preventDefault(); search(); } } },
      h(
        "select#history-game",
        { name: "game", "aria-label": t("historyGame"), on: { change: (e) => { hist.game = e.target.value; search(); } } },
        h("option", { value: "" }, t("historyAllGames")),
        games().map((g) => h("option", { value: g.id, selected: g.id === hist.game }, gameName(g))),
      ),
      h("input#history-player", {
        type: "search",
        name: "player",
        value: hist.player,
        maxLength: 32,
        placeholder: t("historyPlayer"),
        "aria-label": t("historyPlayer"),
        on: {
          input: (e) => {
            hist.player = e.target.value;
            clearTimeout(typing);
            typing = setTimeout(search, 300);
          },
        },
      }),
    );
  }

  function renderHistory() {
    const finished = $("#finished-list", view);
    const more = $("#history-more", view);
    if (!finished || !more) return;
    if (hist.rows === null) return;
    const searching = hist.game || hist.player.trim();
    clear(
      finished,
      hist.rows.length === 0
        ? h("p.muted", null, searching ? t("historyNone") : t("noFinishedTables"))
        : hist.rows.map((tbl) => historyRow(tbl)),
    );
    clear(
      more,
      hist.more
        ? h(
            "button.button.ghost#history-next",
            {
              type: "button",
              on: {
                click: async (e) => {
                  e.target.disabled = true;
                  try {
                    await searchHistory(true);
                  } catch (err) {
                    toast(`${t("errorPrefix")}${getLang() === "zh" ? err.zh : err.en}`, "error");
                  }
                  renderHistory();
                },
              },
            },
            t("historyMore"),
          )
        : null,
    );
  }

  function historyRow(tbl) {
    const audit = hist.audits[tbl.id];
    return h(
      "div.table-row",
      { dataset: { table: tbl.id, status: tbl.status } },
      h(
        "div.row-main",
        null,
        h("strong", null, tableGameName(games(), tbl)),
        h("span.muted", null, timeAgo(tbl.finished_at)),
        h(
          "ul.seat-chips",
          null,
          tbl.seats.map((s, i) =>
            h(
              `li.${s.kind}`,
              null,
              `${s.kind === "bot" ? botChip(games(), tbl, { ...s, seat: i }) : (s.name ?? t("seatN", { n: i + 1 }))} ${tbl.totals ? (tbl.totals[i] > 0 ? "+" : "") + tbl.totals[i] : ""}`,
              s.left ? h("span.badge.left", null, t("seatLeftBadge")) : null,
            ),
          ),
        ),
        audit ? h("a.audit-verdict", { href: `#/verify/${tbl.id}`, title: t("verifyInBrowser"), dataset: { verdict: audit.verdict } }, audit.text) : null,
      ),
      h(
        "div.row-actions",
        null,
        h("a.button.replay-link", { href: `#/replay/${tbl.id}` }, t("replay")),
        h(
          "a.button.ghost.export-link",
          { href: `/api/tables/${tbl.id}/log?format=jsonl`, download: `${tbl.id}.jsonl`, title: t("exportTitle") },
          t("export"),
        ),
        h("button.button.ghost.audit-button", { type: "button", title: t("auditTitle"), on: { click: () => auditTable(tbl.id) } }, t("audit")),
      ),
    );
  }

  /** `paiju audit` of the table's exported log, run by the engine in this browser. */
  async function auditTable(id) {
    const audits = hist.audits;
    audits[id] = { verdict: "running", text: t("auditRunning") };
    renderHistory();
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(id)}/log?format=jsonl`, { cache: "no-store" });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const report = await auditLog(await response.text(), getLang());
      const word = { sound: t("auditSound"), incomplete: t("auditIncomplete"), failed: t("auditFailed") }[report.verdict] ?? report.verdict;
      audits[id] = { verdict: report.verdict, text: word };
    } catch (err) {
      audits[id] = { verdict: "error", text: `${t("errorPrefix")}${err.message}` };
    }
    if (!gone()) renderHistory();
  }

  return {
    searchHistory,
    renderHistorySearch,
    renderHistory,
    /** Whether more than the first page is loaded (the lobby's refresh then leaves it as it is). */
    paged: () => (hist.rows?.length ?? 0) > HISTORY_PAGE,
  };
}
