import { describe, test } from "node:test";
import { defineCompaction } from "./conformance-compaction.ts";
import { defineCrud } from "./conformance-crud.ts";
import { defineList } from "./conformance-list.ts";
import { defineWatch } from "./conformance-watch.ts";
import type { Storage } from "./storage.ts";

/**
 * The behavioural spec every `Storage` backend passes. Each test opens a fresh, empty store with
 * `open` and closes it at the end. Test files import it by relative path; production code must
 * not (it pulls in `node:test`), so it is not exported from `index.ts`.
 */
export function storageConformance(name: string, open: () => Promise<Storage>): void {
  const it = (title: string, body: (store: Storage) => Promise<void>): void => {
    test(title, async () => {
      const store = await open();
      try {
        await body(store);
      } finally {
        await store.close();
      }
    });
  };

  describe(`Storage conformance: ${name}`, () => {
    describe("reads and writes", () => defineCrud(it));
    describe("list and count", () => defineList(it));
    describe("watch", () => defineWatch(it));
    describe("compaction and close", () => defineCompaction(it, open));
  });
}
