// The page's side of working offline: the service worker (web-client/sw.js) registered once the
// engine has loaded (its copies then come from the browser's HTTP cache, not the network again),
// and whether the network is there now, for the pages that need it to say so.

/** @type {Set<(online: boolean) => void>} */
const listeners = new Set();

export function isOnline() {
  return navigator.onLine;
}

/** @param {(online: boolean) => void} listener @returns {() => void} stop listening */
export function onOnline(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** @param {Promise<unknown>} engineReady */
export function keepForOffline(engineReady) {
  for (const type of ["online", "offline"]) {
    window.addEventListener(type, () => listeners.forEach((listener) => listener(navigator.onLine)));
  }
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const register = () =>
    navigator.serviceWorker
      .register("/sw.js", { type: "module", scope: "/" })
      .catch((err) => console.warn("the offline copy is not kept:", err.message));
  engineReady.then(register, register);
}
