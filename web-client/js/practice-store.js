// The practice matches kept in the browser (IndexedDB), so that a reload resumes one where it
// was: per route (a game and its variant), what started it, its secret seed and its log. The log
// never holds the secret; the two together rebuild the table (paiju.practice resume).

const DATABASE = "paiju-practice";
const MATCHES = "matches";

/** @typedef {{args: Record<string, any>, secret: string, log: string, saved: number}} KeptPractice */

/** @returns {Promise<IDBDatabase>} */
function database() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(MATCHES);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * @template T
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest<T>} act
 * @returns {Promise<T>}
 */
async function withMatches(mode, act) {
  const db = await database();
  try {
    return await new Promise((resolve, reject) => {
      const request = act(db.transaction(MATCHES, mode).objectStore(MATCHES));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}

/** @param {string} key @returns {Promise<KeptPractice | undefined>} */
export function keptPractice(key) {
  return withMatches("readonly", (store) => store.get(key));
}

/** @param {string} key @param {KeptPractice} match */
export function keepPractice(key, match) {
  return withMatches("readwrite", (store) => store.put(match, key));
}

/** @param {string} key */
export function forgetPractice(key) {
  return withMatches("readwrite", (store) => store.delete(key));
}
