import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually, FakeClock, startTestApiServer } from "../../testing/index.ts";
import { ensureNoLeaks } from "../../testing/leak-check.ts";

const configMaps = "/api/v1/namespaces/default/configmaps";

async function listRevision(send: (m: string, p: string) => Promise<Response>): Promise<number> {
  const list = (await (await send("GET", configMaps)).json()) as {
    metadata: { resourceVersion: string };
  };
  return Number(list.metadata.resourceVersion);
}

test("list at a resourceVersion the cache never reaches: 504 Too large resource version after 3 s of the server's clock", async (t) => {
  const clock = new FakeClock(new Date("2026-01-01T00:00:00Z"));
  await using api = await startTestApiServer({ clock });
  ensureNoLeaks(t, { clock });
  const ahead = (await listRevision(api.send)) + 50;
  // The server's own loops sleep on the clock too: the list adds one sleep to theirs.
  const sleeping = clock.waiters;
  let answered = false;
  const answer = api
    .send("GET", `${configMaps}?resourceVersion=${ahead}&resourceVersionMatch=NotOlderThan`)
    .finally(() => {
      answered = true;
    });
  await eventually(() =>
    assert.equal(clock.waiters, sleeping + 1, "the list waits on the server's clock"),
  );
  await clock.advance(2999);
  assert.equal(answered, false, "no answer before 3 s");
  await clock.advance(1);
  const res = await answer;
  assert.equal(res.status, 504);
  const status = (await res.json()) as {
    reason: string;
    message: string;
    details: { causes: { reason: string; message: string }[] };
  };
  assert.equal(status.reason, "Timeout");
  assert.equal(status.message, "Too large resource version");
  assert.deepEqual(status.details.causes, [
    { reason: "ResourceVersionTooLarge", message: "Too large resource version" },
  ]);
});

test("list at a resourceVersion the cache reaches in time: answered at once, and the 3 s wait is cancelled", async (t) => {
  const clock = new FakeClock(new Date("2026-01-01T00:00:00Z"));
  await using api = await startTestApiServer({ clock });
  ensureNoLeaks(t, { clock });
  const namespace = await api.send("POST", "/api/v1/namespaces", {
    body: { metadata: { name: "default" } },
  });
  assert.equal(namespace.status, 201);
  const next = (await listRevision(api.send)) + 1;
  const sleeping = clock.waiters;
  const answer = api.send(
    "GET",
    `${configMaps}?resourceVersion=${next}&resourceVersionMatch=NotOlderThan`,
  );
  await eventually(() =>
    assert.equal(clock.waiters, sleeping + 1, "the list waits on the server's clock"),
  );
  const created = await api.send("POST", configMaps, {
    body: { metadata: { name: "c" }, data: { k: "v" } },
  });
  assert.equal(created.status, 201);
  const res = await answer;
  assert.equal(res.status, 200);
  const list = (await res.json()) as { metadata: { resourceVersion: string } };
  assert.ok(
    Number(list.metadata.resourceVersion) >= next,
    `the list is at least as new as asked (${list.metadata.resourceVersion} >= ${next})`,
  );
  assert.equal(clock.waiters, sleeping, "the list's sleep is cancelled once it is answered");
});
