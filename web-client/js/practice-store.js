// The practice matches kept in the browser (IndexedDB), so that a reload resumes one where it
// was: per route (a game and its variant), what started it, its secret seed and its log. The log
// never holds the secret; the two together rebuild the table (paiju.practice resume).

const DATABASE = "paiju-practice";
const MATCHES = "matches";

/** @typedef {{table: string, args: Record<string, any>, secret: string, log: string, saved: number}} KeptPractice */

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

/** The kept match played at practice table `table` (its id in the log), if any.
 * @param {string} table @returns {Promise<KeptPractice | undefined>} */
export async function keptPracticeAt(table) {
  /** @type {KeptPractice[]} */
  const all = await withMatches("readonly", (store) => store.getAll());
  return all.find((match) => match.table === table);
}

/** @param {string} key */
export function forgetPractice(key) {
  return withMatches("readwrite", (store) => store.delete(key));
}

/** Whether `tableId` names a practice table of this browser (its log is kept here, not served). */
export const isPracticeTable = (tableId) => tableId.startsWith("practice-");

/**
 * A practice table's kept log as the gateway gives a table's (`{header, events}`), and its seats'
 * names as a table's entry has them.
 * @param {string} tableId
 */
export async function practiceLog(tableId) {
  const kept = await keptPracticeAt(tableId);
  if (!kept?.log) throw new Error(`no practice match kept at ${tableId}`);
  const [header, ...events] = kept.log.split("\n").filter(Boolean).map((line) => JSON.parse(line));
  const meta = { seats: (header.names ?? []).map((name, seat) => ({ seat, name, kind: seat === kept.args.seat ? "human" : "bot" })) };
  return { log: { header, events }, meta };
}
