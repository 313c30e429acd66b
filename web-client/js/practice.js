// 练习: a table against bots run entirely in this browser (#/practice/<game>[/<variant>]). The
// engine worker is the table's authority (paiju.practice: the table's steps, the bots' moves, the
// clock); the page is the same table page as a server table's, over a practice transport
// (practice-transport.js) instead of the server's socket. The match is kept in IndexedDB
// (practice-store.js) after every change: a reload resumes it where it was. Nothing goes to the
// server, so it plays offline too.

import * as api from "./api.js";
import { clockOf } from "./clock.js";
import { h } from "./dom.js";
import { practiceCall } from "./engine.js";
import { t } from "./i18n.js";
import { catalog } from "./catalog.js";
import { forgetPractice, keepPractice, keptPractice } from "./practice-store.js";
import { practiceTransport } from "./practice-transport.js";
import { mountTable } from "./table.js";

export const PRACTICE_SEAT = 0; // the person sits first; the bots fill the rest
// how long a bot takes over its move, and 托管 over mine (ms), by the pace chosen
export const PACES = { normal: { bot_delay_ms: 800, auto_delay_ms: 1000 }, fast: { bot_delay_ms: 100, auto_delay_ms: 100 } };

/** The table id a practice match is shown under (the worker's key, the log's table). */
const tableOf = (key) => `practice-${key.replace("/", "-")}`;


/**
 * The arguments of a new practice match, from the route's query (the lobby's form).
 * @param {any} game @param {any} variant @param {URLSearchParams | null} query
 */
function newMatch(game, variant, query) {
  const players = Number(query?.get("players")) || variant.players.at(-1);
  const names = [api.playerName(), ...Array.from({ length: players - 1 }, (_, i) => t("botName", { n: i + 2 }))];
  let options = {};
  try {
    options = JSON.parse(query?.get("options") ?? "{}");
  } catch {
    options = {};
  }
  const level = query?.get("level") || game.levels?.[0]?.id || "normal";
  const pace = PACES[query?.get("pace") ?? "normal"] ?? PACES.normal;
  const clock = clockOf(game, query?.get("clock") ?? "standard");
  return { game: game.id, variant: variant.id, seat: PRACTICE_SEAT, players, options, names, level, clock, ...pace };
}

/**
 * Mount a practice table for `gameId` (and `variantId`, else the game's first) in `root`: the kept
 * match of that game and variant if there is one, else a new one dealt from a seed drawn here.
 * @param {HTMLElement} root @param {string} gameId @param {string | undefined} variantId @param {URLSearchParams | null} query
 */
export function mountPractice(root, gameId, variantId, query) {
  let table = null;
  let dead = false;
  const host = h("div.practice-host");
  root.append(host);

  async function open() {
    const games = await catalog();
    const game = games.find((g) => g.id === gameId);
    const variant = game && (variantId ? game.variants.find((v) => v.id === variantId) : game.variants[0]);
    if (!game || !variant) {
      host.append(h("p.error.big", null, t("practiceUnknown")));
      return;
    }
    const key = `${game.id}/${variant.id}`;
    const id = tableOf(key);
    const call = (method, ...args) => practiceCall(id, method, ...args);
    let kept = query?.get("new") === "1" ? undefined : await keptPractice(key);
    if (kept) {
      try {
        await call("resume", kept.log, JSON.stringify({ ...resumeArgs(kept.args), seed: kept.secret, now_ms: Date.now() }));
      } catch (err) {
        console.warn("the kept practice match does not resume: a new one starts", err.message);
        kept = undefined;
      }
    }
    if (!kept) {
      const args = newMatch(game, variant, query);
      kept = { table: id, args, secret: api.newSeed(), log: "", saved: Date.now() };
      await call("start", JSON.stringify({ ...args, table: id, seed: kept.secret, now_ms: Date.now() }));
      await keepPractice(key, { ...kept, log: await call("log") });
    }
    if (dead) return;
    const match = kept;
    const keep = (log) => keepPractice(key, { ...match, log, saved: Date.now() });
    const transport = practiceTransport({ call, keep });
    table = mountTable(host, id, {
      source: {
        practice: true,
        transport,
        token: { seat: PRACTICE_SEAT, token: "practice" },
        table: async () => JSON.parse(await call("entry")),
        hands: async () => JSON.parse(await call("hands")),
        log: () => call("log"),
        rematch: async () => {
          match.secret = api.newSeed(); // the new match's deals come from a new secret
          transport.rematch(match.secret);
        },
        leave: async () => {
          await forgetPractice(key);
          location.hash = "#/";
        },
      },
    });
  }

  open().catch((err) => {
    console.error("practice:", err);
    host.append(h("p.error.big", null, `${t("errorPrefix")}${err.message}`));
  });

  return {
    unmount() {
      dead = true;
      table?.unmount();
    },
    rerender() {
      table?.rerender();
    },
  };
}

/** What a kept match's resume needs beside its log and seed (the log holds the rest).
 * @param {Record<string, any>} args */
function resumeArgs({ seat, level, clock, bot_delay_ms, auto_delay_ms }) {
  return { seat, level, clock, bot_delay_ms, auto_delay_ms };
}
