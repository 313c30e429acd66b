// A practice table as a transport (table-socket.js names the interface): the table runs in the
// engine worker (paiju.practice, engine.js practiceCall), not on a server. A frame sent is given
// to it at once; what it answers is delivered in order; when it names a time to wake (a bot's
// move, the person's deadline, the next deal), it is woken then. After each answer that changed
// something, its log is handed to `keep` (the page keeps it in IndexedDB, practice-store.js), so
// that a reload resumes the match.

/** @typedef {import("./table-socket.js").Transport} Transport */
/** @typedef {{frames: any[], wake: number | null}} Answer */

/**
 * @param {{call: (method: string, ...args: any[]) => Promise<any>, now?: () => number,
 *   schedule?: (fn: () => void, ms: number) => any, cancel?: (timer: any) => void,
 *   keep?: (log: string) => unknown}} options
 *   `call`: the table's own calls ("open", "receive", "advance", "rematch", "log"), answered
 *   with JSON text; `keep`: given the log after each change
 * @returns {Transport & {rematch(seed: string): void}}
 */
export function practiceTransport({ call, now = Date.now, schedule = setTimeout, cancel = clearTimeout, keep = () => {} }) {
  /** @type {(frame: any) => void} */
  let onFrame = () => {};
  let stopped = false;
  let timer = null;
  let queue = Promise.resolve(); // one call at a time, answered in the order they were made

  /** @param {() => Promise<string>} ask */
  function enqueue(ask) {
    queue = queue
      .then(async () => {
        if (stopped) return;
        deliver(JSON.parse(await ask()));
      })
      .catch((err) => console.error("practice table:", err?.message ?? err));
    return queue;
  }

  /** @param {Answer} answer */
  function deliver(answer) {
    if (stopped) return;
    if (timer !== null) cancel(timer);
    timer = null;
    for (const frame of answer.frames) onFrame(frame);
    if (answer.wake !== null && answer.wake !== undefined) {
      timer = schedule(() => {
        timer = null;
        enqueue(() => call("advance", now()));
      }, Math.max(0, answer.wake - now()));
    }
    if (answer.frames.length > 0) {
      queue = queue.then(async () => {
        if (!stopped) await keep(await call("log"));
      });
    }
  }

  return {
    open(frames, links) {
      onFrame = frames;
      links({ link: "connecting" });
      enqueue(async () => {
        const answer = await call("open", now());
        links({ link: "open", hello: true }); // the table welcomes its one person to the seat
        return answer;
      });
    },
    send(frame) {
      if (stopped) return false;
      enqueue(() => call("receive", JSON.stringify(frame), now()));
      return true;
    },
    /** 再来一局: a new match at this table, dealt from a new seed. */
    rematch(seed) {
      if (!stopped) enqueue(() => call("rematch", seed, now()));
    },
    close() {
      stopped = true;
      if (timer !== null) cancel(timer);
      timer = null;
    },
  };
}
