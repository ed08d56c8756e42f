import assert from "node:assert/strict";
import { test } from "node:test";
import { newestByCreation } from "./newest.ts";

const at = (name: string, creationTimestamp?: string) => ({
  metadata: { name, ...(creationTimestamp === undefined ? {} : { creationTimestamp }) },
});

test("newestByCreation: the newest wins; equal times go to the smaller name; none gives undefined", () => {
  assert.equal(
    newestByCreation([at("a", "2024-01-01T00:00:00Z"), at("b", "2024-02-01T00:00:00Z")])?.metadata
      .name,
    "b",
  );
  assert.equal(
    newestByCreation([at("z", "2024-01-01T00:00:00Z"), at("m", "2024-01-01T00:00:00Z")])?.metadata
      .name,
    "m",
  );
  assert.equal(newestByCreation([at("x"), at("y", "2024-01-01T00:00:00Z")])?.metadata.name, "y");
  assert.equal(newestByCreation([]), undefined);
});
