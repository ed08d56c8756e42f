import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { discardLogger } from "../util/index.ts";
import { startAllInOne } from "./all-in-one.ts";

ensureNoLeaksInEachTest();

const dir = mkdtempSync(join(tmpdir(), "gantry-all-in-one-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const invalidCases = [
  {
    name: "a negative read-only limit",
    limits: { maxRequestsInFlight: -1 },
    want: "--max-requests-inflight can not be negative value",
  },
  {
    name: "a negative mutating limit",
    limits: { maxMutatingRequestsInFlight: -1 },
    want: "--max-mutating-requests-inflight can not be negative value",
  },
] as const;

for (const c of invalidCases) {
  test(`startAllInOne: ${c.name} is refused with kube-apiserver's message`, async () => {
    await assert.rejects(
      startAllInOne({
        dataDir: join(dir, c.name.replaceAll(" ", "-")),
        port: 0,
        address: "127.0.0.1",
        storage: "sqlite",
        logger: discardLogger,
        ...c.limits,
      }),
      new RangeError(c.want),
    );
  });
}
