import assert from "node:assert/strict";
import { test } from "node:test";
import type { JsonObject } from "../../util/index.ts";
import { newCachedObject } from "./cached-object.ts";

const pod: JsonObject = {
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "web", namespace: "default", labels: { app: "}" } },
  spec: { containers: [{ name: "web" }] },
};

test("an object's JSON from storage's text is the text its own serialization gives", () => {
  const fromText = newCachedObject("/registry/pods/default/web", pod, 12, JSON.stringify(pod));
  const serialized = newCachedObject("/registry/pods/default/web", pod, 12);
  assert.equal(fromText.json(), serialized.json(), "the same JSON either way");
  assert.equal(
    (JSON.parse(fromText.json()) as { metadata: { resourceVersion: string } }).metadata
      .resourceVersion,
    "12",
    "with the revision as resourceVersion",
  );
});

test("a text that cannot take the resourceVersion is not used", () => {
  const pretty = JSON.stringify(pod, null, 2);
  const cached = newCachedObject("/k", pod, 3, pretty);
  assert.equal(cached.json(), JSON.stringify(cached.object), "a text with whitespace");
  const withVersion = { ...pod, metadata: { name: "web", resourceVersion: "1" } };
  const stale = newCachedObject("/k", withVersion, 3, JSON.stringify(withVersion));
  assert.equal(stale.json(), JSON.stringify(stale.object), "a value carrying a resourceVersion");
  const bare = { kind: "Thing" };
  assert.equal(
    newCachedObject("/k", bare, 3, JSON.stringify(bare)).json(),
    JSON.stringify({ kind: "Thing", metadata: { resourceVersion: "3" } }),
    "no metadata to put it in",
  );
});
