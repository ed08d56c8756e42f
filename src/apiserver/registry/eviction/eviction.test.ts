import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import {
  ApiError,
  type LabelSelector,
  type Pod,
  type PodDisruptionBudget,
  type PodDisruptionBudgetStatus,
} from "../../../api/index.ts";
import {
  type ClusterHarness,
  makePdb,
  makePod,
  type PdbBuilder,
  startClusterHarness,
} from "../../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../../testing/leak-check.ts";

// apiserver/ may not import client/: the resources are spelled out here.
const podsResource = {
  group: "",
  version: "v1",
  resource: "pods",
  kind: "Pod",
  namespaced: true,
} as const;
const podDisruptionBudgetsResource = {
  group: "policy",
  version: "v1",
  resource: "poddisruptionbudgets",
  kind: "PodDisruptionBudget",
  namespaced: true,
} as const;

let harness: ClusterHarness;
let client: ClusterHarness["client"];
let counter = 0;

before(async () => {
  harness = await startClusterHarness();
  client = harness.client;
});
after(async () => {
  await harness[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

/** A fresh namespace per case, so cases never see each other's budgets. */
async function namespace(): Promise<string> {
  const name = `ev-${++counter}`;
  await client.create(
    { group: "", version: "v1", resource: "namespaces", kind: "Namespace", namespaced: false },
    { apiVersion: "v1", kind: "Namespace", metadata: { name } },
  );
  return name;
}

async function createPod(
  ns: string,
  name: string,
  state: "ready" | "unready" | "pending" | "succeeded",
): Promise<Pod> {
  const pod = makePod(name).namespace(ns).label("app", "web").nodeName("n1").obj();
  delete pod.metadata.uid;
  const created = await client.create<Pod>(podsResource, pod);
  if (state === "pending") return created;
  const phase = state === "succeeded" ? "Succeeded" : "Running";
  const ready = state === "ready" ? "True" : "False";
  return client.patch<Pod>(
    podsResource,
    ns,
    name,
    "merge",
    { status: { phase, conditions: [{ type: "Ready", status: ready }] } },
    { subresource: "status" },
  );
}

/** Creates the budget and writes `status` as the controller would (observedGeneration = 1). */
async function createPdb(
  ns: string,
  builder: PdbBuilder,
  status: Partial<PodDisruptionBudgetStatus>,
): Promise<PodDisruptionBudget> {
  const pdb = builder.namespace(ns).forCreate();
  const created = await client.create<PodDisruptionBudget>(podDisruptionBudgetsResource, pdb);
  created.status = {
    observedGeneration: 1,
    disruptionsAllowed: 0,
    currentHealthy: 0,
    desiredHealthy: 0,
    expectedPods: 0,
    ...status,
  };
  return client.updateStatus<PodDisruptionBudget>(podDisruptionBudgetsResource, created);
}

/** POSTs an Eviction and returns the response body as sent on the wire. */
async function evict(ns: string, name: string, deleteOptions?: unknown): Promise<unknown> {
  const body: Record<string, unknown> = {
    apiVersion: "policy/v1",
    kind: "Eviction",
    metadata: { name, namespace: ns },
  };
  if (deleteOptions !== undefined) body["deleteOptions"] = deleteOptions;
  const response = await fetch(`${harness.url}/api/v1/namespaces/${ns}/pods/${name}/eviction`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...auth() },
    body: JSON.stringify(body),
  });
  const status = (await response.json()) as { code: number };
  lastRetryAfter = response.headers.get("retry-after");
  assert.equal(status.code, response.status, "the Status code is the HTTP status");
  return status;
}

let lastRetryAfter: string | null = null;

function auth(): Record<string, string> {
  const token = /token: (\S+)/.exec(readFileSync(harness.kubeconfigPath, "utf8"))?.[1];
  return token === undefined ? {} : { Authorization: `Bearer ${token}` };
}

/** Whether the pod is still there and not terminating. */
async function exists(ns: string, name: string): Promise<boolean> {
  try {
    const pod = await client.get(podsResource, ns, name);
    return pod.metadata.deletionTimestamp === undefined;
  } catch (error: unknown) {
    if (error instanceof ApiError && error.code === 404) return false;
    throw error;
  }
}

const successStatus = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Success",
  code: 201,
};
const web = makePdb("web-pdb").matchLabels({ app: "web" });

test("EvictionREST.create: a pod without a budget is deleted with 201 Success", async () => {
  const ns = await namespace();
  await createPod(ns, "p", "ready");
  assert.deepEqual(await evict(ns, "p"), successStatus);
  assert.equal(await exists(ns, "p"), false);
});

test("EvictionREST.create: budget exhausted answers 429 with the DisruptionBudget cause", async () => {
  const ns = await namespace();
  await createPod(ns, "p", "ready");
  await createPdb(ns, web.clone().minAvailable(1), {
    currentHealthy: 1,
    desiredHealthy: 1,
    expectedPods: 1,
  });
  assert.deepEqual(await evict(ns, "p"), {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: "Cannot evict pod as it would violate the pod's disruption budget.",
    reason: "TooManyRequests",
    details: {
      causes: [
        {
          reason: "DisruptionBudget",
          message: "The disruption budget web-pdb needs 1 healthy pods and has 1 currently",
        },
      ],
    },
    code: 429,
  });
  assert.equal(lastRetryAfter, null, "no Retry-After on an exhausted budget");
  assert.equal(await exists(ns, "p"), true);
});

test("EvictionREST.create: an allowed eviction spends budget, records disruptedPods and marks the pod", async () => {
  const ns = await namespace();
  await createPod(ns, "p", "ready");
  await createPdb(ns, web.clone().minAvailable(0), {
    disruptionsAllowed: 1,
    currentHealthy: 1,
    expectedPods: 1,
  });
  const watched = await client.get<Pod>(podsResource, ns, "p");
  assert.deepEqual(await evict(ns, "p", { gracePeriodSeconds: 30 }), successStatus);
  const pod = await client.get<Pod>(podsResource, ns, "p");
  assert.ok(pod.metadata.deletionTimestamp !== undefined, "a bound pod is deleted gracefully");
  assert.deepEqual(
    pod.status?.conditions?.find((c) => c.type === "DisruptionTarget"),
    {
      type: "DisruptionTarget",
      status: "True",
      reason: "EvictionByEvictionAPI",
      message: "Eviction API: evicting",
      lastTransitionTime: pod.status?.conditions?.find((c) => c.type === "DisruptionTarget")
        ?.lastTransitionTime,
    },
  );
  assert.notEqual(pod.metadata.resourceVersion, watched.metadata.resourceVersion);
  const pdb = await client.get<PodDisruptionBudget>(podDisruptionBudgetsResource, ns, "web-pdb");
  assert.equal(pdb.status?.disruptionsAllowed, 0);
  assert.deepEqual(Object.keys(pdb.status?.disruptedPods ?? {}), ["p"]);
  assert.equal(
    pdb.status?.conditions?.find((c) => c.type === "DisruptionAllowed")?.reason,
    "InsufficientPods",
  );
});

test("EvictionREST.create: an unobserved generation answers 429 still being processed with retryAfterSeconds 10", async () => {
  const ns = await namespace();
  await createPod(ns, "p", "ready");
  await createPdb(ns, web.clone().minAvailable(0), {
    observedGeneration: 0,
    disruptionsAllowed: 5,
  });
  const got = (await evict(ns, "p")) as { code: number; details: unknown };
  assert.equal(got.code, 429);
  assert.deepEqual(got.details, {
    causes: [
      {
        reason: "DisruptionBudget",
        message: "The disruption budget web-pdb is still being processed by the server.",
      },
    ],
    retryAfterSeconds: 10,
  });
  assert.equal(lastRetryAfter, "10");
});

test("EvictionREST.create: a pod matched by two budgets answers 500 with no reason", async () => {
  const ns = await namespace();
  await createPod(ns, "p", "ready");
  await createPdb(ns, web.clone(), { disruptionsAllowed: 1 });
  await createPdb(ns, makePdb("all").selector({}), { disruptionsAllowed: 1 });
  assert.deepEqual(await evict(ns, "p"), {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message:
      "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
    code: 500,
  });
});

const selectorShapes = [
  { name: "matchLabels on the pod's label", selector: { matchLabels: { app: "web" } } },
  {
    name: "matchLabels naming another of the pod's labels first",
    selector: { matchLabels: { tier: "front", app: "web" } },
  },
  {
    name: "matchExpressions only",
    selector: { matchExpressions: [{ key: "app", operator: "In", values: ["web", "db"] }] },
  },
  {
    name: "matchLabels and matchExpressions",
    selector: {
      matchLabels: { tier: "front" },
      matchExpressions: [{ key: "app", operator: "Exists" }],
    },
  },
  { name: "an empty selector (every pod)", selector: {} },
] satisfies { name: string; selector: LabelSelector }[];

for (const c of selectorShapes) {
  test(`EvictionREST.create: a budget with ${c.name} governs the pod among others that do not`, async () => {
    const ns = await namespace();
    const pod = makePod("p").namespace(ns).label("app", "web").label("tier", "front");
    const created = pod.nodeName("n1").obj();
    delete created.metadata.uid;
    await client.create<Pod>(podsResource, created);
    await client.patch<Pod>(
      podsResource,
      ns,
      "p",
      "merge",
      { status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }] } },
      { subresource: "status" },
    );
    // Budgets that select other pods only, in the buckets an index could confuse.
    await createPdb(ns, makePdb("other-app").matchLabels({ app: "db" }), {});
    await createPdb(ns, makePdb("other-tier").matchLabels({ tier: "back", app: "web" }), {});
    await createPdb(
      ns,
      makePdb("other-expr").selector({
        matchExpressions: [{ key: "app", operator: "NotIn", values: ["web"] }],
      }),
      {},
    );
    await createPdb(ns, makePdb("governs").selector(c.selector), { disruptionsAllowed: 0 });
    const status = (await evict(ns, "p")) as { code: number; details?: unknown };
    assert.equal(status.code, 429, "the budget that selects the pod refuses the eviction");
    assert.equal(await exists(ns, "p"), true);
  });
}

const bypassCases = [
  { name: "a Pending pod bypasses an exhausted budget", state: "pending" },
  { name: "a Succeeded pod bypasses an exhausted budget", state: "succeeded" },
] as const;

for (const c of bypassCases) {
  test(`EvictionREST.create: ${c.name}`, async () => {
    const ns = await namespace();
    await createPod(ns, "p", c.state);
    const pdb = await createPdb(ns, web.clone().minAvailable(5), {});
    assert.deepEqual(await evict(ns, "p"), successStatus);
    const after = await client.get<PodDisruptionBudget>(
      podDisruptionBudgetsResource,
      ns,
      "web-pdb",
    );
    assert.equal(
      after.metadata.resourceVersion,
      pdb.metadata.resourceVersion,
      "the budget is untouched",
    );
  });
}

const unhealthyCases = [
  {
    name: "an unready pod of a healthy budget goes without budget",
    policy: undefined,
    status: { currentHealthy: 2, desiredHealthy: 2 },
    want: 201,
  },
  {
    name: "an unready pod of a disrupted budget needs budget (IfHealthyBudget)",
    policy: "IfHealthyBudget",
    status: { currentHealthy: 1, desiredHealthy: 2 },
    want: 429,
  },
  {
    name: "an unready pod of a disrupted budget goes with AlwaysAllow",
    policy: "AlwaysAllow",
    status: { currentHealthy: 1, desiredHealthy: 2 },
    want: 201,
  },
  {
    name: "desiredHealthy 0 makes an unready pod need budget",
    policy: undefined,
    status: { currentHealthy: 0, desiredHealthy: 0 },
    want: 429,
  },
] as const;

for (const c of unhealthyCases) {
  test(`EvictionREST.create: ${c.name}`, async () => {
    const ns = await namespace();
    await createPod(ns, "p", "unready");
    const builder = web.clone().minAvailable(c.status.desiredHealthy);
    if (c.policy !== undefined) builder.unhealthyPodEvictionPolicy(c.policy);
    await createPdb(ns, builder, c.status);
    const got = (await evict(ns, "p")) as { code: number };
    assert.equal(got.code, c.want);
  });
}

test("EvictionREST.create: dryRun spends nothing and deletes nothing", async () => {
  const ns = await namespace();
  await createPod(ns, "p", "ready");
  const pdb = await createPdb(ns, web.clone().minAvailable(0), { disruptionsAllowed: 1 });
  assert.deepEqual(await evict(ns, "p", { dryRun: ["All"] }), successStatus);
  assert.equal(await exists(ns, "p"), true);
  const after = await client.get<PodDisruptionBudget>(podDisruptionBudgetsResource, ns, "web-pdb");
  assert.equal(
    after.metadata.resourceVersion,
    pdb.metadata.resourceVersion,
    "the budget is untouched",
  );
});

test("EvictionREST.create: a stale uid precondition answers 409 naming Pod", async () => {
  const ns = await namespace();
  const pod = await createPod(ns, "p", "ready");
  const got = (await evict(ns, "p", { preconditions: { uid: "other" } })) as {
    code: number;
    message: string;
  };
  assert.equal(got.code, 409);
  assert.equal(
    got.message,
    `Operation cannot be fulfilled on Pod "p": the UID in the precondition (other) does not match the UID in record (${pod.metadata.uid ?? ""}). The object might have been deleted and then recreated`,
  );
});

test("EvictionREST.create: a disruptedPods map over 2000 entries answers 403", async () => {
  const ns = await namespace();
  await createPod(ns, "p", "ready");
  const disruptedPods = Object.fromEntries(
    Array.from({ length: 2001 }, (_, i) => [`x${i}`, "2026-01-01T00:00:00Z"]),
  );
  await createPdb(ns, web.clone().minAvailable(0), { disruptionsAllowed: 3, disruptedPods });
  const got = (await evict(ns, "p")) as { code: number; message: string; details: unknown };
  assert.deepEqual(
    { code: got.code, message: got.message, details: got.details },
    {
      code: 403,
      message:
        'poddisruptionbudget.policy "web-pdb" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller',
      details: { name: "web-pdb", group: "policy", kind: "poddisruptionbudget" },
    },
  );
});

test("EvictionREST.create: concurrent evictions spend the budget exactly once each, never 409", async () => {
  const ns = await namespace();
  for (let i = 0; i < 6; i++) await createPod(ns, `p${i}`, "ready");
  await createPdb(ns, web.clone().minAvailable(0), {
    disruptionsAllowed: 3,
    currentHealthy: 6,
    expectedPods: 6,
  });
  const results = await Promise.all(
    Array.from({ length: 6 }, (_, i) => evict(ns, `p${i}`) as Promise<{ code: number }>),
  );
  const codes = results.map((r) => r.code).sort();
  assert.deepEqual(codes, [201, 201, 201, 429, 429, 429]);
});
