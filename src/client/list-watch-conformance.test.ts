import { startClusterHarness } from "../testing/cluster-harness.ts";
import { ensureNoLeaksAfterSuite } from "../testing/leak-check.ts";
import { listWatchConformance } from "./list-watch-conformance.ts";

// The HTTP transport against a real API server (SQLite, so history can be compacted).
listWatchConformance(
  "HTTP transport",
  async () => {
    const harness = await startClusterHarness({ storage: "sqlite" });
    return {
      client: harness.client,
      expireHistory: () => harness.restart({ compact: true }),
      [Symbol.asyncDispose]: () => harness[Symbol.asyncDispose](),
    };
  },
  ensureNoLeaksAfterSuite,
);
