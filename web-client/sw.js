// The service worker: the site after its first visit without the network. It keeps what the
// gateway's /offline.json lists (the app shell, every module, the rules pages, Pyodide and the
// engine), refreshes that list whenever a page is opened with the network, and answers each
// request as js/offline-plan.js says. With no network, the lobby, practice and the verify page
// work from what it kept; tables on the server say they need the connection.

import { ALSO_KEPT, CACHE, changesOf, MANIFEST, strategyFor, VERSION_KEY } from "./js/offline-plan.js";

const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

sw.addEventListener("install", (event) => {
  event.waitUntil(keepCurrent().then(() => sw.skipWaiting()));
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(sw.clients.claim());
});

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  const strategy = strategyFor(request.method, new URL(request.url), sw.location.origin);
  // the network's own way while there is one: a versioned file then comes from the HTTP cache
  // with V8's compiled code of it (Pyodide's wasm), which an answer from here would not bring
  if (strategy === "network" || (strategy === "cache-first" && sw.navigator.onLine)) return;
  if (request.mode === "navigate" && sw.navigator.onLine) event.waitUntil(keepCurrent().catch(() => {}));
  event.respondWith(strategy === "cache-first" ? cacheFirst(request) : networkFirst(request));
});

/** The kept copy of a request (its Vary ignored: one copy per URL), or of the page for a visit. */
async function kept(request) {
  const cache = await caches.open(CACHE);
  const found = await cache.match(request, { ignoreVary: true, ignoreSearch: request.mode === "navigate" });
  return found ?? (request.mode === "navigate" ? cache.match("/", { ignoreVary: true }) : undefined);
}

/** @param {Request} request */
async function cacheFirst(request) {
  const found = await kept(request);
  if (found) return found;
  const response = await fetch(request);
  if (response.ok) await (await caches.open(CACHE)).put(request, response.clone());
  return response;
}

/** @param {Request} request */
async function networkFirst(request) {
  if (!sw.navigator.onLine) return (await kept(request)) ?? fetch(request);
  try {
    const response = await fetch(request);
    if (response.status === 200) await keepIfNew(request, response.clone());
    return response;
  } catch (err) {
    const found = await kept(request);
    if (found) return found;
    throw err;
  }
}

/** A fresh answer kept unless the kept copy has its content already (the same ETag).
 * @param {Request} request
 * @param {Response} response */
async function keepIfNew(request, response) {
  const cache = await caches.open(CACHE);
  const key = request.mode === "navigate" ? "/" : request;
  const before = await cache.match(key, { ignoreVary: true });
  const tag = response.headers.get("etag");
  if (before && tag && before.headers.get("etag") === tag) return;
  await cache.put(key, response);
}

let keeping = null; // the refresh under way: one at a time

/** Keep every file /offline.json lists now, and forget the ones it no longer lists. */
function keepCurrent() {
  keeping ??= refresh().finally(() => {
    keeping = null;
  });
  return keeping;
}

async function refresh() {
  const response = await fetch(MANIFEST, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${MANIFEST}: HTTP ${response.status}`);
  const listed = await response.json();
  const version = listed.version;
  const files = [...listed.files, ...ALSO_KEPT];
  const cache = await caches.open(CACHE);
  const note = await cache.match(VERSION_KEY);
  const before = note ? await note.json() : { version: null, files: [] };
  if (before.version === version) return;
  const { fetch: wanted, forget } = changesOf(before.files, files);
  // one by one: a page may be loading the engine meanwhile, and these come from its HTTP cache
  for (const url of wanted) {
    const answer = await fetch(url);
    if (!answer.ok) throw new Error(`${url}: HTTP ${answer.status}`);
    await cache.put(url, answer);
  }
  for (const url of forget) await cache.delete(url);
  await cache.put(VERSION_KEY, new Response(JSON.stringify({ version, files })));
}
