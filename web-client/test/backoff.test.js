// node --test web-client/test/: the client's back-off (js/backoff.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { ceiling, delay, RECONNECT, RESEND } from "../js/backoff.js";

test("the ceiling doubles from the base up to the cap", () => {
  const policy = { base: 250, cap: 2000 };
  assert.deepEqual([0, 1, 2, 3, 4, 50].map((n) => ceiling(policy, n)), [250, 500, 1000, 2000, 2000, 2000]);
});

test("each wait is drawn from the upper half of its ceiling", () => {
  for (const policy of [RECONNECT, RESEND]) {
    for (let n = 0; n < 12; n++) {
      const top = ceiling(policy, n);
      assert.equal(delay(policy, n, { random: () => 0 }), top / 2);
      assert.equal(delay(policy, n, { random: () => 0.999999 }), top / 2 + 0.999999 * (top / 2));
      const drawn = delay(policy, n);
      assert.ok(top / 2 <= drawn && drawn < top, `${n}: ${drawn}`);
    }
  }
});

test("the server's retry-after is a floor", () => {
  assert.equal(delay(RESEND, 0, { retryAfter: 2, random: () => 0 }), 2000);
  assert.equal(delay(RESEND, 6, { retryAfter: 1, random: () => 0 }), ceiling(RESEND, 6) / 2);
});

test("a client that keeps failing for a minute tries a few dozen times at most", () => {
  let attempts = 1;
  for (let elapsed = 0; ; attempts++) {
    elapsed += delay(RECONNECT, attempts - 1, { random: () => 0 }); // the shortest draws
    if (elapsed > 60_000) break;
  }
  assert.ok(attempts <= 20, `${attempts} attempts`);
});
