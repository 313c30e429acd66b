// The lobby: the game catalogue, a form to open a table (lobby-new-table.js), the live tables to
// join or watch (lobby-live.js), and the history of finished games (lobby-history.js). Lists
// refresh every few seconds while the lobby is open. The nickname typed here is the player's name
// wherever he sits (kept in this browser).

import * as api from "./api.js";
import { catalog, variantName } from "./catalog.js";
import { $, clear, h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { createHistory } from "./lobby-history.js";
import { liveTables } from "./lobby-live.js";
import { newTableForm } from "./lobby-new-table.js";
import { isOnline, onOnline } from "./offline.js";

const REFRESH_MS = 4000;

function playersOf(game) {
  const all = new Set(game.variants.flatMap((v) => v.players));
  const list = [...all].sort((a, b) => a - b);
  return list.length > 1 ? `${list[0]}–${list.at(-1)}` : String(list[0]);
}

/** The first sentence or two of a description: the card's summary. */
function summary(text) {
  const parts = text.split(/(?<=[。.!?！？])\s*/);
  let out = parts[0] ?? text;
  if (out.length < 40 && parts[1]) out += parts[1];
  return out;
}

export function mountLobby(root) {
  const state = {
    games: null,
    live: null,
    chosen: null,
    error: null,
  };
  let timer = null;
  let dead = false;

  const view = h("div.lobby");
  root.append(view);
  const history = createHistory(view, { games: () => state.games, gone: () => dead });

  async function load() {
    const firstLoad = !state.games;
    try {
      state.games ??= await catalog();
      state.chosen ??= state.games[0]?.id ?? null;
      if (!isOnline()) throw new api.ApiError(0, { code: "network" }); // nothing to ask for
      const first = !history.paged(); // not paged further
      const [live] = await Promise.all([api.tables("live"), first ? history.searchHistory(false) : null]);
      state.live = live;
      state.error = null;
    } catch (err) {
      state.error = err;
    }
    if (dead) return;
    if (firstLoad && state.games) render();
    else renderLists();
  }

  function render() {
    const games = state.games;
    clear(
      view,
      h(
        "section.hero",
        null,
        h("h1", null, t("appName"), getLang() === "zh" ? h("span.hero-en", null, "Paiju") : null),
        h("p", null, t("tagline")),
      ),
      h(
        "div.lobby-grid",
        null,
        h(
          "div.lobby-main",
          null,
          h("section.panel#catalog", null, h("h2", null, t("games")), games ? renderCatalog(games) : h("p.muted", null, t("loading"))),
        ),
        h(
          "div.lobby-side",
          null,
          h("section.panel#create", null, h("h2", null, t("newTable")), games ? newTableForm(games, state.chosen, choose) : null),
          h("section.panel#live", null, h("h2", null, t("liveTables")), h("div.list#live-list")),
          h(
            "section.panel#finished",
            null,
            h("h2", null, t("finishedTables")),
            games ? history.renderHistorySearch() : null,
            h("div.list#finished-list"),
            h("div.history-more#history-more"),
            h("p.muted.lobby-verify", null, h("a#lobby-verify", { href: "#/verify" }, t("verifyFile"))),
          ),
        ),
      ),
    );
    renderLists();
  }

  function renderCatalog(games) {
    return h(
      "div.game-cards",
      null,
      games.map((game) =>
        h(
          "article.game-card",
          { dataset: { game: game.id } },
          h(
            "header",
            null,
            h("h3", null, getLang() === "zh" ? game.name_zh : game.name_en),
            h("span.game-alt", null, getLang() === "zh" ? game.name_en : game.name_zh),
          ),
          h(
            "p.meta",
            null,
            h("span", null, getLang() === "zh" ? game.region_zh : game.region_en),
            h("span", null, t("playersN", { n: playersOf(game) })),
          ),
          h("p.summary", null, summary(getLang() === "zh" ? game.description_zh : game.description_en)),
          h(
            "ul.variant-chips",
            null,
            game.variants.map((v) => h("li", { title: getLang() === "zh" ? v.summary_zh : v.summary_en }, variantName(v))),
          ),
          h(
            "footer",
            null,
            h("a.button.ghost", { href: `#/rules/${game.id}` }, t("rules")),
            h(
              "button.button",
              {
                type: "button",
                on: {
                  click: () => {
                    choose(game.id);
                    $("#create")?.scrollIntoView({ behavior: "smooth", block: "start" });
                  },
                },
              },
              t("pickGame"),
            ),
          ),
        ),
      ),
    );
  }

  /** Another game picked in the form: the form drawn again for it. */
  function choose(id) {
    state.chosen = id;
    render();
  }

  function renderLists() {
    const live = $("#live-list", view);
    const finished = $("#finished-list", view);
    if (!live || !finished) return;
    if (state.error && !isOnline()) {
      clear(live, h("p.muted.offline", { role: "status" }, t("offlineLobby")));
      return;
    }
    if (state.error) {
      clear(live, h("p.error", null, `${t("errorPrefix")}${getLang() === "zh" ? state.error.zh : state.error.en}`));
      return;
    }
    if (state.live === null) return;
    clear(live, liveTables(state.live, state.games));
    history.renderHistory();
  }

  render();
  load();
  timer = setInterval(load, REFRESH_MS);
  const stopListening = onOnline(() => load()); // the network back (or gone): say so at once
  return {
    unmount() {
      dead = true;
      clearInterval(timer);
      stopListening();
    },
    rerender: render,
  };
}
