// The back-off every retry of the client waits (docs/services.md, "Back-off and load shedding"),
// the same policy as the services' (services/src/paiju_services/backoff.py): the wait after the
// n-th failure in a row (n from 0) is drawn from the upper half of min(cap, base * 2^n), so a
// crowd of clients cut off from the server together comes back spread out, and a client that keeps
// failing tries ever less often, never more often than half the cap.

/** A policy: milliseconds after the first failure (before jitter), and the most. */
export const RECONNECT = { base: 250, cap: 10_000 };
export const RESEND = { base: 300, cap: 5_000 };

/** The longest wait after `failures + 1` failures in a row. */
export function ceiling(policy, failures) {
  return Math.min(policy.cap, policy.base * 2 ** Math.min(failures, 60));
}

/** The wait (ms) after `failures + 1` failures in a row: between half the ceiling and all of it,
 * and never less than the server's `retryAfter` (seconds) when it said one. `random`: a draw
 * from [0, 1). */
export function delay(policy, failures, { retryAfter = 0, random = Math.random } = {}) {
  const top = ceiling(policy, failures);
  return Math.max(top / 2 + random() * (top / 2), retryAfter * 1000);
}
