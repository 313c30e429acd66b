// A game's rules page, for players: the catalogue's facts (name, region, players, variants), the
// house rules of the table the player came from (?table=<id>), and the players' guide
// web-client/guide/<game>.<lang>.md in the page's language, its card groups drawn as cards.
// ?notes=1 shows instead the developers' document docs/rules/<game>.md (web-client/rules links to
// docs/rules): the rules as implemented, with every interpretation. Without a document, the
// catalogue's summary stands in.

import * as api from "./api.js";
import { GUIDE_URL, RULES_URL } from "./config.js";
import { cardRow } from "./cards.js";
import { clear, h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { catalog, houseRulesText, variantName, variantOf } from "./catalog.js";
import { markdown } from "./markdown.js";

/** Draw every card group ({{3C 3D}} in the Markdown) of ``root`` as a row of small cards. */
export function cardPictures(root) {
  for (const span of root.querySelectorAll(".card-pics")) {
    const codes = span.dataset.cards.split(" ");
    const row = cardRow(codes, "guide-cards");
    row.setAttribute("role", "img");
    row.setAttribute("aria-label", span.textContent === span.dataset.cards ? codes.join(" ") : span.textContent);
    span.replaceChildren(row);
  }
}

export function mountRules(root, gameId, query = new URLSearchParams()) {
  const view = h("article.rules-page");
  root.append(view);
  const notes = query.get("notes") === "1";
  const tableId = query.get("table");
  const docs = {}; // lang → text; undefined: loading, null: missing
  let game = null;
  let table = null; // the table the player came from
  let dead = false;

  const docUrl = (lang) => (notes ? `${RULES_URL}${gameId}.md` : `${GUIDE_URL}${gameId}.${lang}.md`);
  const docKey = () => (notes ? "notes" : getLang());

  async function load() {
    const key = docKey();
    if (key in docs) return;
    docs[key] = undefined;
    try {
      const response = await fetch(docUrl(getLang()), { cache: "no-cache" });
      docs[key] = response.ok ? await response.text() : null;
    } catch {
      docs[key] = null;
    }
    if (!dead) render();
  }

  function render() {
    if (!game) {
      clear(view, h("p.muted", null, t("loading")));
      return;
    }
    load();
    const zh = getLang() === "zh";
    const doc = docs[docKey()];
    const body = h("div.rules-doc");
    if (doc) {
      body.innerHTML = markdown(doc);
      cardPictures(body);
    }
    body.addEventListener("click", (e) => {
      const link = e.target.closest?.("a[data-anchor]");
      if (!link) return;
      e.preventDefault(); // the hash is the page's route: scroll instead of navigating
      const target = body.querySelector(`[id="${CSS.escape(decodeURIComponent(link.dataset.anchor))}"]`);
      target?.scrollIntoView({ behavior: "smooth", block: "start" });
    });
    const variant = table ? variantOf(game, table.variant) : null;
    const house = table ? houseRulesText(variant, table.options) || t("houseRulesDefault") : null;
    const other = notes ? `#/rules/${gameId}` : `#/rules/${gameId}?notes=1`;
    clear(
      view,
      h("a.back", { href: tableId ? `#/table/${tableId}` : "#/" }, `← ${t(tableId ? "backToTable" : "backToLobby")}`),
      h("h1", null, t("rulesOf", { name: zh ? game.name_zh : game.name_en }), h("span.hero-en", null, zh ? game.name_en : game.name_zh)),
      h("p.meta", null, zh ? game.region_zh : game.region_en),
      house ? h("p.table-house-rules#table-house-rules", null, `${variantName(variant)} · ${house}`) : null,
      h("p.lead", null, zh ? game.description_zh : game.description_en),
      h("h2", null, t("variants")),
      h(
        "dl.variants",
        null,
        game.variants.flatMap((v) => [
          h("dt", null, variantName(v), " ", h("span.muted", null, t("playersN", { n: v.players.join("/") }))),
          h("dd", null, zh ? v.summary_zh : v.summary_en),
        ]),
      ),
      doc === null ? h("p.muted", null, t("rulesMissing")) : null,
      doc === undefined ? h("p.muted", null, t("loading")) : null,
      doc ? body : null,
      h("p.muted.rules-other", null, h("a#rules-other", { href: other }, t(notes ? "rulesForPlayers" : "rulesNotes"))),
    );
  }

  (async () => {
    try {
      const games = await catalog();
      game = games.find((g) => g.id === gameId) ?? null;
      if (!game) {
        location.hash = "#/";
        return;
      }
      if (tableId) table = await api.api(`/api/tables/${encodeURIComponent(tableId)}`).catch(() => null);
    } catch {
      game = null;
    }
    if (!dead) render();
  })();
  render();
  return {
    unmount() {
      dead = true;
    },
    rerender: render,
  };
}
