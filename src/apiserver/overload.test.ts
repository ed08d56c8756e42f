import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually, FakeClock, settle, startTestApiServer } from "../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { admit } from "./admission/index.ts";
import { newAnonymousAuthenticator } from "./authn.ts";
import { timeoutBody } from "./flowcontrol/index.ts";

ensureNoLeaksInEachTest();

/** A point an admission call stops at until the test opens it. */
function newGate() {
  let markReached: () => void = () => undefined;
  let markOpen: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    markReached = resolve;
  });
  const opened = new Promise<void>((resolve) => {
    markOpen = resolve;
  });
  return {
    reached,
    open: () => markOpen(),
    pass: async () => {
      markReached();
      await opened;
      return admit;
    },
  };
}

const configMap = (name: string) => ({ metadata: { name }, data: { k: "v" } });

test("Request timeout: a write still in admission at its deadline gets upstream's 504 and writes nothing", async () => {
  const clock = new FakeClock();
  const gate = newGate();
  let finished = false;
  await using api = await startTestApiServer({
    clock,
    requestTimeoutMs: 1_000,
    extraAdmission: () => [
      {
        name: "Slow",
        handles: (a) => a.resource === "configmaps" && a.name === "slow",
        validate: async () => {
          try {
            return await gate.pass();
          } finally {
            finished = true;
          }
        },
      },
    ],
  });
  assert.equal(
    (await api.send("POST", "/api/v1/namespaces", { body: { metadata: { name: "ns" } } })).status,
    201,
  );
  const pending = api.send("POST", "/api/v1/namespaces/ns/configmaps", { body: configMap("slow") });
  await gate.reached;
  await clock.advance(999);
  await clock.advance(1);
  const res = await pending;
  assert.equal(res.status, 504);
  assert.equal(res.headers.get("content-type"), "text/plain; charset=utf-8");
  assert.ok(res.headers.get("audit-id") !== null, "the Audit-Id header stays");
  assert.equal(await res.text(), timeoutBody);
  assert.equal(
    timeoutBody,
    '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n',
  );

  // The handler carries on once admission returns, but its write is abandoned.
  gate.open();
  await eventually(() => assert.ok(finished, "admission returned"));
  await settle();
  assert.equal(
    (await api.send("POST", "/api/v1/namespaces/ns/configmaps", { body: configMap("after") }))
      .status,
    201,
    "the server serves on",
  );
  const list = (await (await api.send("GET", "/api/v1/namespaces/ns/configmaps")).json()) as {
    items: { metadata: { name: string } }[];
  };
  assert.deepEqual(
    list.items.map((item) => item.metadata.name),
    ["after"],
  );
});

test("Request timeout: ?timeout= shortens the deadline; a value that is not a duration is upstream's 400", async () => {
  const clock = new FakeClock();
  const gate = newGate();
  await using api = await startTestApiServer({
    clock,
    extraAdmission: () => [
      {
        name: "Slow",
        handles: (a) => a.resource === "configmaps",
        validate: () => gate.pass(),
      },
    ],
  });
  await api.send("POST", "/api/v1/namespaces", { body: { metadata: { name: "ns" } } });
  const pending = api.send("POST", "/api/v1/namespaces/ns/configmaps?timeout=250ms", {
    body: configMap("slow"),
  });
  await gate.reached;
  await clock.advance(250);
  assert.equal((await pending).status, 504, "250ms, not the default minute");
  gate.open();

  const bad = await api.send("GET", "/api/v1/namespaces/ns/configmaps?timeout=soon");
  assert.equal(bad.status, 400);
  assert.deepEqual(await bad.json(), {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: 'invalid timeout specified in the request URL - time: invalid duration "soon"',
    reason: "BadRequest",
    code: 400,
  });
});

test("Watch cap: a user's watch beyond --max-watches-per-user is a 429 Status until one closes; admins are not counted", async () => {
  await using api = await startTestApiServer({
    maxWatchesPerUser: 2,
    authenticate: newAnonymousAuthenticator("admin-token"),
  });
  const watches: AbortController[] = [];
  const openWatch = async (token?: string) => {
    const abort = new AbortController();
    const res = await fetch(`${api.url}/api/v1/configmaps?watch=true`, {
      signal: abort.signal,
      ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
    });
    watches.push(abort);
    return { res, abort };
  };
  try {
    assert.equal((await openWatch()).res.status, 200);
    const second = await openWatch();
    assert.equal(second.res.status, 200);
    const third = await openWatch();
    assert.equal(third.res.status, 429);
    assert.equal(third.res.headers.get("retry-after"), "1");
    assert.deepEqual(await third.res.json(), {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'Cannot open another watch: user "system:anonymous" has 2 watches open, the most --max-watches-per-user allows',
      reason: "TooManyRequests",
      details: { retryAfterSeconds: 1 },
      code: 429,
    });
    for (let i = 0; i < 3; i++) {
      assert.equal((await openWatch("admin-token")).res.status, 200, `admin watch ${i}`);
    }
    second.abort.abort();
    await eventually(async () => {
      const next = await openWatch();
      assert.equal(next.res.status, 200, "a closed watch frees its place");
    });
  } finally {
    for (const abort of watches) abort.abort();
  }
});

test("Priority and fairness: a request waits in its queue for a seat rather than failing, and says where it was classified", async () => {
  const gate = newGate();
  await using api = await startTestApiServer({
    enablePriorityAndFairness: true,
    // 8 seats: global-default gets ceil(8 * 20 / 245) = 1.
    maxRequestsInFlight: 4,
    maxMutatingRequestsInFlight: 4,
    authenticate: newAnonymousAuthenticator("admin-token"),
    extraAdmission: () => [
      {
        name: "Hold",
        handles: (a) => a.resource === "configmaps" && a.name === "held",
        validate: () => gate.pass(),
      },
    ],
  });
  await api.send("POST", "/api/v1/namespaces", {
    body: { metadata: { name: "ns" } },
    headers: { authorization: "Bearer admin-token" },
  });
  const held = api.send("POST", "/api/v1/namespaces/ns/configmaps", { body: configMap("held") });
  await gate.reached;
  let queuedDone = false;
  const queued = api.send("GET", "/api/v1/namespaces/ns/configmaps").then((res) => {
    queuedDone = true;
    return res;
  });
  // An admin is exempt and passes the waiting request.
  const exempt = await api.send("GET", "/api/v1/namespaces/ns/configmaps", {
    headers: { authorization: "Bearer admin-token" },
  });
  assert.equal(exempt.status, 200);
  assert.equal(queuedDone, false, "the anonymous list waits for global-default's seat");
  gate.open();
  const [heldRes, queuedRes] = await Promise.all([held, queued]);
  assert.equal(heldRes.status, 201);
  assert.equal(queuedRes.status, 200);
  for (const res of [heldRes, queuedRes, exempt]) {
    assert.match(res.headers.get("x-kubernetes-pf-flowschema-uid") ?? "", /^[0-9a-f-]{36}$/);
    assert.match(res.headers.get("x-kubernetes-pf-prioritylevel-uid") ?? "", /^[0-9a-f-]{36}$/);
  }
  assert.equal(
    heldRes.headers.get("x-kubernetes-pf-flowschema-uid"),
    queuedRes.headers.get("x-kubernetes-pf-flowschema-uid"),
    "both anonymous requests are global-default",
  );
  assert.notEqual(
    exempt.headers.get("x-kubernetes-pf-prioritylevel-uid"),
    queuedRes.headers.get("x-kubernetes-pf-prioritylevel-uid"),
    "the admin's is exempt",
  );
});

test("Priority and fairness: a request that waits longer than a quarter of --request-timeout gets upstream's 429", async () => {
  const clock = new FakeClock();
  const gate = newGate();
  await using api = await startTestApiServer({
    clock,
    enablePriorityAndFairness: true,
    maxRequestsInFlight: 4,
    maxMutatingRequestsInFlight: 4,
    requestTimeoutMs: 4_000,
    authenticate: newAnonymousAuthenticator("admin-token"),
    extraAdmission: () => [
      {
        name: "Hold",
        handles: (a) => a.resource === "configmaps" && a.name === "held",
        validate: () => gate.pass(),
      },
    ],
  });
  await api.send("POST", "/api/v1/namespaces", { body: { metadata: { name: "ns" } } });
  const held = api.send("POST", "/api/v1/namespaces/ns/configmaps?timeout=1h", {
    body: configMap("held"),
  });
  await gate.reached;
  const queued = api.send("GET", "/api/v1/namespaces/ns/configmaps");
  // Metrics as the admin: exempt, so the scrapes never queue behind the held request.
  const scrape = async () =>
    (
      await api.send("GET", "/metrics", { headers: { authorization: "Bearer admin-token" } })
    ).text();
  await eventually(async () => {
    const text = await scrape();
    assert.match(
      text,
      /apiserver_flowcontrol_current_inqueue_requests\{priority_level="global-default",flow_schema="global-default"\} 1/,
    );
  });
  await clock.advance(1_000);
  const res = await queued;
  assert.equal(res.status, 429);
  assert.equal(res.headers.get("retry-after"), "1");
  assert.equal(await res.text(), "Too many requests, please try again later.\n");
  const metrics = await scrape();
  assert.match(
    metrics,
    /apiserver_flowcontrol_rejected_requests_total\{priority_level="global-default",flow_schema="global-default",reason="time-out"\} 1/,
  );
  assert.match(metrics, /apiserver_dropped_requests_total\{request_kind="readOnly"\} 1/);
  gate.open();
  assert.equal((await held).status, 201);
});
