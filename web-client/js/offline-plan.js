// What the service worker (web-client/sw.js) does with each request: pure, so that node tests it.
//
//   "cache-first"    a versioned file of Pyodide or the wheel (/pyodide/~<tag>/…, /wheels/~<tag>/…):
//                    its content never changes under that URL
//   "network-first"  the app shell and every other file the gateway serves, /versions.json, and the
//                    games' catalogue (/api/games): fresh when the network answers, kept for when
//                    it does not
//   "network"        anything else: the API's live answers, sockets, another origin, a write

export const CACHE = "paiju-offline"; // one cache: each URL once, the versioned ones by version
export const MANIFEST = "/offline.json"; // the gateway's list of what to keep, and its version
export const VERSION_KEY = "/offline.json#version"; // where the kept list's version is noted
// kept beside the gateway's list: where the versioned files are, and the games' catalogue (the
// page asked for both before the service worker was there to keep them)
export const ALSO_KEPT = ["/versions.json", "/api/games"];

/** @typedef {"cache-first" | "network-first" | "network"} Strategy */

/**
 * @param {string} method
 * @param {URL} url
 * @param {string} origin the service worker's own
 * @returns {Strategy}
 */
export function strategyFor(method, url, origin) {
  if (method !== "GET" || url.origin !== origin) return "network";
  const path = url.pathname;
  if (/^\/(pyodide|wheels)\/~[0-9a-f]+\//.test(path)) return "cache-first";
  if (path === "/api/games") return "network-first";
  if (path.startsWith("/api/") || path.startsWith("/ws/") || path === MANIFEST) return "network";
  return "network-first";
}

/**
 * The URLs to fetch and to forget when the kept list changes from `kept` to `wanted`.
 * @param {string[]} kept
 * @param {string[]} wanted
 * @returns {{fetch: string[], forget: string[]}}
 */
export function changesOf(kept, wanted) {
  const had = new Set(kept);
  const want = new Set(wanted);
  return {
    fetch: wanted.filter((url) => !had.has(url)),
    forget: kept.filter((url) => !want.has(url)),
  };
}
