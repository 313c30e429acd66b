// A game's rules page: the catalogue's facts (name, region, players, variants) and the full rules
// document docs/rules/<game>.md, served by the gateway with the web client (web-client/rules is a
// link to docs/rules). Without the document, the catalogue's summary stands in.

import { RULES_URL } from "./config.js";
import { clear, h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { catalog, variantName } from "./lobby.js";
import { markdown } from "./markdown.js";

export function mountRules(root, gameId) {
  const view = h("article.rules-page");
  root.append(view);
  let doc = undefined; // undefined: loading, null: missing
  let game = null;
  let dead = false;

  function render() {
    if (!game) {
      clear(view, h("p.muted", null, t("loading")));
      return;
    }
    const zh = getLang() === "zh";
    const body = h("div.rules-doc");
    if (doc) body.innerHTML = markdown(doc);
    body.addEventListener("click", (e) => {
      const link = e.target.closest?.("a[data-anchor]");
      if (!link) return;
      e.preventDefault(); // the hash is the page's route: scroll instead of navigating
      const target = body.querySelector(`[id="${CSS.escape(decodeURIComponent(link.dataset.anchor))}"]`);
      target?.scrollIntoView({ behavior: "smooth", block: "start" });
    });
    clear(
      view,
      h("a.back", { href: "#/" }, `← ${t("backToLobby")}`),
      h("h1", null, t("rulesOf", { name: zh ? game.name_zh : game.name_en }), h("span.hero-en", null, zh ? game.name_en : game.name_zh)),
      h("p.meta", null, zh ? game.region_zh : game.region_en),
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
      render();
      const response = await fetch(`${RULES_URL}${gameId}.md`, { cache: "no-cache" });
      doc = response.ok ? await response.text() : null;
    } catch {
      doc = null;
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
