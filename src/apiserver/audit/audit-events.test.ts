import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { test } from "node:test";
import { unauthorized } from "../../api/index.ts";
import { eventually, startTestApiServer } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import type { UserInfo } from "../admission/index.ts";
import { type AuditPolicy, parseAuditPolicy } from "./policy.ts";

ensureNoLeaksInEachTest();

const alice = { username: "alice", uid: "uid-alice", groups: ["team-a", "system:authenticated"] };
const admin: UserInfo = { username: "admin", groups: ["system:masters", "system:authenticated"] };
const anonymous: UserInfo = { username: "system:anonymous", groups: ["system:unauthenticated"] };

/** alice and admin by bearer token, anonymous without one, 401 for any other token. */
function authenticate(req: IncomingMessage): UserInfo {
  const header = req.headers.authorization;
  if (header === undefined) return anonymous;
  if (header === "Bearer alice-token") return alice;
  if (header === "Bearer admin-token") return admin;
  throw unauthorized();
}

const policy: AuditPolicy = parseAuditPolicy(
  `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: None
    resources: [{group: "", resources: [namespaces]}]
  - level: RequestResponse
    namespaces: [rr]
  - level: RequestResponse
    namespaces: [rr-lean]
    omitManagedFields: true
    omitStages: [RequestReceived]
  - level: Request
    namespaces: [req]
  - level: Metadata
`,
  "policy.yaml",
);

async function auditedServer() {
  const lines: string[] = [];
  let now = Date.UTC(2024, 0, 1);
  const api = await startTestApiServer({
    authenticate,
    audit: { policy, sink: { process: (line) => lines.push(line) }, now: () => (now += 1.25) },
    extraAdmission: () => [
      {
        name: "TestAnnotations",
        handles: (a) => a.resource === "configmaps" && a.name === "annotated",
        validate: () => ({ allowed: true, auditAnnotations: { "example.com/checked": "yes" } }),
      },
    ],
  });
  for (const name of ["meta", "req", "rr", "rr-lean"]) {
    const res = await api.send("POST", "/api/v1/namespaces", { body: { metadata: { name } } });
    assert.equal(res.status, 201, `namespace ${name}`);
  }
  /** The events of one request, parsed, once its ResponseComplete (or `last`) is in. */
  const eventsOf = (auditId: string, last = "ResponseComplete") =>
    eventually(() => {
      const events = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((event) => event["auditID"] === auditId);
      assert.ok(
        events.some((event) => event["stage"] === last),
        `${last} of ${auditId} in ${lines.length} lines`,
      );
      return events;
    });
  return { api, lines, eventsOf };
}

const microTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

/** Checks and blanks the timestamps, so events compare whole. */
function normalized(event: Record<string, unknown>): Record<string, unknown> {
  for (const field of ["requestReceivedTimestamp", "stageTimestamp"]) {
    assert.match(String(event[field]), microTime, field);
  }
  return { ...event, requestReceivedTimestamp: "T", stageTimestamp: "T" };
}

const configMap = (name: string) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name },
  data: { k: "v" },
});

/** What every create of a ConfigMap by alice records, whatever the level. */
function createEvent(level: string, namespace: string, auditId: string, stage: string) {
  return {
    kind: "Event",
    apiVersion: "audit.k8s.io/v1",
    level,
    auditID: auditId,
    stage,
    requestURI: `/api/v1/namespaces/${namespace}/configmaps?fieldManager=audit-test`,
    verb: "create",
    user: { username: "alice", uid: "uid-alice", groups: ["team-a", "system:authenticated"] },
    sourceIPs: ["127.0.0.1"],
    userAgent: "audit-test/1.0",
    objectRef: { resource: "configmaps", namespace, name: "cm", apiVersion: "v1" },
  };
}

async function createAs(api: Awaited<ReturnType<typeof auditedServer>>["api"], namespace: string) {
  const res = await api.send(
    "POST",
    `/api/v1/namespaces/${namespace}/configmaps?fieldManager=audit-test`,
    {
      body: configMap("cm"),
      headers: { authorization: "Bearer alice-token", "user-agent": "audit-test/1.0" },
    },
  );
  assert.equal(res.status, 201);
  const auditId = res.headers.get("audit-id") ?? "";
  assert.ok(auditId !== "", "Audit-Id header");
  return { auditId, body: (await res.json()) as Record<string, unknown> };
}

const allowAnnotations = {
  "authorization.k8s.io/decision": "allow",
  "authorization.k8s.io/reason": "",
};

test("Audit: Metadata level records who did what to which object, no objects", async () => {
  const { api, eventsOf } = await auditedServer();
  await using _ = api;
  const { auditId } = await createAs(api, "meta");
  const events = (await eventsOf(auditId)).map(normalized);
  assert.deepEqual(events, [
    {
      // Received before the body is read: no name yet, no status, no annotations.
      ...createEvent("Metadata", "meta", auditId, "RequestReceived"),
      objectRef: { resource: "configmaps", namespace: "meta", apiVersion: "v1" },
      requestReceivedTimestamp: "T",
      stageTimestamp: "T",
    },
    {
      ...createEvent("Metadata", "meta", auditId, "ResponseComplete"),
      responseStatus: { metadata: {}, code: 201 },
      requestReceivedTimestamp: "T",
      stageTimestamp: "T",
      annotations: allowAnnotations,
    },
  ]);
  const line = (await eventsOf(auditId))[1] ?? {};
  assert.deepEqual(Object.keys(line), [
    "kind",
    "apiVersion",
    "level",
    "auditID",
    "stage",
    "requestURI",
    "verb",
    "user",
    "sourceIPs",
    "userAgent",
    "objectRef",
    "responseStatus",
    "requestReceivedTimestamp",
    "stageTimestamp",
    "annotations",
  ]);
});

test("Audit: Request level adds the request object, RequestResponse the response object too", async () => {
  const { api, eventsOf } = await auditedServer();
  await using _ = api;
  const request = await createAs(api, "req");
  const [received, completed] = (await eventsOf(request.auditId)).map(normalized);
  assert.equal(received?.["requestObject"], undefined, "not before the body is read");
  assert.deepEqual(completed, {
    ...createEvent("Request", "req", request.auditId, "ResponseComplete"),
    responseStatus: { metadata: {}, code: 201 },
    requestObject: configMap("cm"),
    requestReceivedTimestamp: "T",
    stageTimestamp: "T",
    annotations: allowAnnotations,
  });

  const full = await createAs(api, "rr");
  const events = (await eventsOf(full.auditId)).map(normalized);
  assert.deepEqual(events[1], {
    ...createEvent("RequestResponse", "rr", full.auditId, "ResponseComplete"),
    responseStatus: { metadata: {}, code: 201 },
    requestObject: configMap("cm"),
    responseObject: full.body,
    requestReceivedTimestamp: "T",
    stageTimestamp: "T",
    annotations: allowAnnotations,
  });
  assert.ok(
    Array.isArray((full.body["metadata"] as Record<string, unknown>)["managedFields"]),
    "the response carries managedFields",
  );
});

test("Audit: omitStages and omitManagedFields from the matching rule", async () => {
  const { api, eventsOf } = await auditedServer();
  await using _ = api;
  const { auditId, body } = await createAs(api, "rr-lean");
  const events = await eventsOf(auditId);
  assert.deepEqual(
    events.map((e) => e["stage"]),
    ["ResponseComplete"],
  );
  const { managedFields: _dropped, ...metadata } = body["metadata"] as Record<string, unknown>;
  assert.deepEqual(events[0]?.["responseObject"], { ...body, metadata });
});

test("Audit: a failed request records its Status as responseStatus", async () => {
  const { api, eventsOf } = await auditedServer();
  await using _ = api;
  const res = await api.send("GET", "/api/v1/namespaces/meta/configmaps/missing", {
    headers: { authorization: "Bearer alice-token" },
  });
  assert.equal(res.status, 404);
  const events = await eventsOf(res.headers.get("audit-id") ?? "");
  assert.deepEqual(events[1]?.["responseStatus"], {
    metadata: {},
    status: "Failure",
    message: 'configmaps "missing" not found',
    reason: "NotFound",
    details: { name: "missing", kind: "configmaps" },
    code: 404,
  });
  assert.equal(events[1]?.["verb"], "get");
});

test("Audit: impersonation records both users; admission annotations join the event", async () => {
  const { api, eventsOf } = await auditedServer();
  await using _ = api;
  const res = await api.send("POST", "/api/v1/namespaces/meta/configmaps", {
    body: configMap("annotated"),
    headers: {
      authorization: "Bearer admin-token",
      "impersonate-user": "bob",
      "impersonate-group": "team-b",
    },
  });
  assert.equal(res.status, 201);
  const events = await eventsOf(res.headers.get("audit-id") ?? "");
  const completed = events[1] ?? {};
  assert.deepEqual(completed["user"], {
    username: "admin",
    groups: ["system:masters", "system:authenticated"],
  });
  assert.deepEqual(completed["impersonatedUser"], {
    username: "bob",
    groups: ["team-b", "system:authenticated"],
  });
  assert.deepEqual(completed["annotations"], {
    ...allowAnnotations,
    "example.com/checked": "yes",
  });
});

test("Audit: a watch gets ResponseStarted when its headers go out, then ResponseComplete", async () => {
  const { api, eventsOf } = await auditedServer();
  await using _ = api;
  const res = await api.send(
    "GET",
    "/api/v1/namespaces/meta/configmaps?watch=true&timeoutSeconds=1",
    {
      headers: { authorization: "Bearer alice-token" },
    },
  );
  assert.equal(res.status, 200);
  const auditId = res.headers.get("audit-id") ?? "";
  const started = await eventsOf(auditId, "ResponseStarted");
  assert.deepEqual(
    started.map((e) => [e["stage"], e["responseStatus"]]),
    [
      ["RequestReceived", undefined],
      ["ResponseStarted", { metadata: {}, code: 200 }],
    ],
  );
  await res.text();
  const events = await eventsOf(auditId);
  assert.deepEqual(
    events.map((e) => [e["stage"], e["verb"], e["responseStatus"]]),
    [
      ["RequestReceived", "watch", undefined],
      ["ResponseStarted", "watch", { metadata: {}, code: 200 }],
      ["ResponseComplete", "watch", { metadata: {}, code: 200 }],
    ],
  );
});

test("Audit: a request that fails authentication gets one ResponseStarted event with 401", async () => {
  const { api, lines } = await auditedServer();
  await using _ = api;
  const res = await api.send("GET", "/api/v1/namespaces/meta/configmaps", {
    headers: { authorization: "Bearer wrong", "user-agent": "audit-test/1.0" },
  });
  assert.equal(res.status, 401);
  const auditId = res.headers.get("audit-id") ?? "";
  const events = await eventually(() => {
    const found = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((e) => e["auditID"] === auditId);
    assert.equal(found.length, 1, "one event");
    return found;
  });
  assert.deepEqual(normalized(events[0] ?? {}), {
    kind: "Event",
    apiVersion: "audit.k8s.io/v1",
    level: "Metadata",
    auditID: auditId,
    stage: "ResponseStarted",
    requestURI: "/api/v1/namespaces/meta/configmaps",
    verb: "list",
    user: {},
    sourceIPs: ["127.0.0.1"],
    userAgent: "audit-test/1.0",
    objectRef: { resource: "configmaps", namespace: "meta", apiVersion: "v1" },
    responseStatus: {
      metadata: {},
      message: "Authentication failed, attempted: bearer",
      code: 401,
    },
    requestReceivedTimestamp: "T",
    stageTimestamp: "T",
  });
});
