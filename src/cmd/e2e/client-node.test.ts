import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  type KubernetesObject,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  type V1Pod,
  Watch,
} from "@kubernetes/client-node";
import { type GantryProcess, startGantry } from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

/** Polls `check` until it returns a value, failing after `timeoutMs`. */
async function waitFor<T>(
  what: string,
  check: () => T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The HTTP code and the Status body of the ApiException a call rejects with. */
async function apiFailure(call: Promise<unknown>): Promise<{ code: number; status: unknown }> {
  try {
    await call;
  } catch (error: unknown) {
    if (!(error instanceof ApiException)) throw error;
    const body: unknown = error.body;
    return { code: error.code, status: typeof body === "string" ? JSON.parse(body) : body };
  }
  throw new Error("The call succeeded; an ApiException was expected");
}

function pod(name: string, labels: Record<string, string>, schedulerName?: string): V1Pod {
  return {
    metadata: { name, labels },
    spec: {
      containers: [{ name: "app", image: "registry.k8s.io/pause:3.10" }],
      ...(schedulerName === undefined ? {} : { schedulerName }),
    },
  };
}

/**
 * A pod no component touches: no scheduler serves `gantry-e2e-unscheduled`, so it is never bound,
 * no kubelet runs it, and it stays Pending with no status writes or events. Tests that replace
 * what they read, or set the status themselves, need one (a scheduled pod's kubelet writes its
 * status at any time, which makes a read-then-replace a 409).
 */
function unscheduledPod(name: string, labels: Record<string, string>): V1Pod {
  return pod(name, labels, "gantry-e2e-unscheduled");
}

/**
 * Reads and writes again on a 409 Conflict, a bounded number of times: client-go's
 * `retry.RetryOnConflict`, which upstream's e2e tests use for objects a controller also writes.
 */
async function retryOnConflict<T>(attempt: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error: unknown) {
      if (!(error instanceof ApiException) || error.code !== 409 || i >= attempts) throw error;
    }
  }
}

const names = (items: readonly KubernetesObject[]): string[] =>
  items.map((item) => item.metadata?.name ?? "").sort();

describe("@kubernetes/client-node 1.3.0 against gantry up", () => {
  let gantry: GantryProcess;
  let kc: KubeConfig;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  const namespace = "client-node";
  // The test's own data dir: the informer case restarts gantry on it, and a gantry started on a
  // given dir leaves it in place, so `after` removes it.
  let dataDir: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "gantry-e2e-"));
    gantry = await startGantry({ dataDir });
    kc = new KubeConfig();
    kc.loadFromFile(gantry.kubeconfig);
    core = kc.makeApiClient(CoreV1Api);
    apps = kc.makeApiClient(AppsV1Api);
    await core.createNamespace({ body: { metadata: { name: namespace } } });
  });
  after(async () => {
    try {
      await gantry[Symbol.asyncDispose]();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
  ensureNoLeaksAfterSuite();

  test("CoreV1Api.createNamespace: returns the namespace, readable and listed", async () => {
    const created = await core.createNamespace({ body: { metadata: { name: "client-node-2" } } });
    assert.equal(created.metadata?.name, "client-node-2");
    assert.equal(created.status?.phase, "Active");
    const read = await core.readNamespace({ name: "client-node-2" });
    assert.equal(read.metadata?.uid, created.metadata?.uid);
    const list = await core.listNamespace({});
    assert.ok(
      names(list.items).includes("client-node-2"),
      'names(list.items).includes("client-node-2")',
    );
  });

  test("CoreV1Api ConfigMap: create, read, merge and JSON patches, delete", async () => {
    const created = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: "settings", labels: { app: "demo" } }, data: { mode: "fast" } },
    });
    assert.equal(created.metadata?.namespace, namespace);
    const read = await core.readNamespacedConfigMap({ name: "settings", namespace });
    assert.deepEqual(read.data, { mode: "fast" });
    const listed = await core.listNamespacedConfigMap({ namespace, labelSelector: "app=demo" });
    assert.deepEqual(names(listed.items), ["settings"]);

    const merged = await core.patchNamespacedConfigMap(
      { name: "settings", namespace, body: { data: { extra: "1" } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    assert.deepEqual(merged.data, { mode: "fast", extra: "1" });

    // Without a header option client-node 1.x sends application/json-patch+json.
    const jsonPatched = await core.patchNamespacedConfigMap({
      name: "settings",
      namespace,
      body: [{ op: "remove", path: "/data/extra" }],
    });
    assert.deepEqual(jsonPatched.data, { mode: "fast" });

    await core.deleteNamespacedConfigMap({ name: "settings", namespace });
    const missing = await apiFailure(core.readNamespacedConfigMap({ name: "settings", namespace }));
    assert.equal(missing.code, 404);
  });

  // client-node turns creationTimestamp into a Date and sends it back with milliseconds
  // ("...:07.000Z"); kube-apiserver keeps the stored creationTimestamp on update whatever the
  // request says (rest.BeforeUpdate: "ignore changes to timestamp").
  test("CoreV1Api.replaceNamespacedConfigMap: the object as read back replaces cleanly", async () => {
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: "replace-me" }, data: { mode: "fast" } },
    });
    const read = await core.readNamespacedConfigMap({ name: "replace-me", namespace });
    const replaced = await core.replaceNamespacedConfigMap({
      name: "replace-me",
      namespace,
      body: { ...read, data: { mode: "slow" } },
    });
    assert.deepEqual(replaced.data, { mode: "slow" });
    assert.notEqual(replaced.metadata?.resourceVersion, read.metadata?.resourceVersion);
    assert.equal(
      replaced.metadata?.creationTimestamp?.getTime(),
      read.metadata?.creationTimestamp?.getTime(),
    );
  });

  test("CoreV1Api.replaceNamespacedPod: the pod as read back replaces cleanly", async () => {
    // Unscheduled: nobody else writes the pod between the read and the replace.
    await core.createNamespacedPod({
      namespace,
      body: unscheduledPod("replace-me", { role: "replace" }),
    });
    const read = await core.readNamespacedPod({ name: "replace-me", namespace });
    const replaced = await core.replaceNamespacedPod({
      name: "replace-me",
      namespace,
      body: { ...read, metadata: { ...read.metadata, labels: { role: "replace", v: "2" } } },
    });
    assert.deepEqual(replaced.metadata?.labels, { role: "replace", v: "2" });
  });

  test("CoreV1Api Pod: list by label selector, field selector, and limit with _continue", async () => {
    for (const [name, tier] of [
      ["web-1", "web"],
      ["web-2", "web"],
      ["web-3", "web"],
      ["db-1", "db"],
    ] as const) {
      await core.createNamespacedPod({ namespace, body: pod(name, { tier }) });
    }
    const web = await core.listNamespacedPod({ namespace, labelSelector: "tier=web" });
    assert.deepEqual(names(web.items), ["web-1", "web-2", "web-3"]);
    const notWeb = await core.listNamespacedPod({ namespace, labelSelector: "tier,tier!=web" });
    assert.deepEqual(names(notWeb.items), ["db-1"]);
    const inSet = await core.listNamespacedPod({ namespace, labelSelector: "tier in (db,cache)" });
    assert.deepEqual(names(inSet.items), ["db-1"]);
    const byName = await core.listNamespacedPod({
      namespace,
      fieldSelector: "metadata.name=web-2",
    });
    assert.deepEqual(names(byName.items), ["web-2"]);

    // With a selector, upstream leaves remainingItemCount unset (it cannot count cheaply).
    const first = await core.listNamespacedPod({ namespace, labelSelector: "tier=web", limit: 2 });
    assert.equal(first.items.length, 2);
    assert.equal(first.metadata?.remainingItemCount, undefined);
    const token = first.metadata?._continue;
    assert.ok(token !== undefined && token !== "", 'token !== undefined && token !== ""');
    const rest = await core.listNamespacedPod({
      namespace,
      labelSelector: "tier=web",
      limit: 2,
      _continue: token,
    });
    assert.deepEqual(names([...first.items, ...rest.items]), ["web-1", "web-2", "web-3"]);
    assert.equal(rest.metadata?._continue ?? "", "");
  });

  test("CoreV1Api.listNamespacedPod: a first page without selectors reports remainingItemCount", async () => {
    await core.createNamespace({ body: { metadata: { name: "paged" } } });
    for (const name of ["a", "b", "c", "d"]) {
      await core.createNamespacedPod({ namespace: "paged", body: pod(name, {}) });
    }
    const first = await core.listNamespacedPod({ namespace: "paged", limit: 3 });
    assert.deepEqual(names(first.items), ["a", "b", "c"]);
    assert.equal(first.metadata?.remainingItemCount, 1);
  });

  test("CoreV1Api Pod: strategic merge patch, status read and replace, delete", async () => {
    // Unscheduled: no kubelet writes its status, so the status read back is replaced cleanly and
    // stays what this test wrote.
    await core.createNamespacedPod({
      namespace,
      body: unscheduledPod("edit-me", { tier: "edit" }),
    });
    // Strategic merge: the containers list merges by name, so the image changes in place.
    const patched = await core.patchNamespacedPod(
      {
        name: "edit-me",
        namespace,
        body: { spec: { containers: [{ name: "app", image: "registry.k8s.io/pause:3.9" }] } },
      },
      setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch),
    );
    assert.deepEqual(
      patched.spec?.containers.map((c) => [c.name, c.image]),
      [["app", "registry.k8s.io/pause:3.9"]],
    );

    const status = await core.readNamespacedPodStatus({ name: "edit-me", namespace });
    assert.equal(status.status?.phase, "Pending");
    const running = await core.replaceNamespacedPodStatus({
      name: "edit-me",
      namespace,
      body: {
        ...status,
        status: {
          ...status.status,
          phase: "Running",
          conditions: [{ type: "Ready", status: "True" }],
        },
      },
    });
    assert.equal(running.status?.phase, "Running");
    assert.deepEqual(
      running.status?.conditions?.map((c) => [c.type, c.status]),
      [["Ready", "True"]],
    );
    // The label selector keeps out the namespace's other pods, which the kubelets run.
    const byPhase = await core.listNamespacedPod({
      namespace,
      labelSelector: "tier=edit",
      fieldSelector: "status.phase=Running",
    });
    assert.deepEqual(names(byPhase.items), ["edit-me"]);
    const stillPending = await core.listNamespacedPod({
      namespace,
      labelSelector: "tier=edit",
      fieldSelector: "status.phase=Pending",
    });
    assert.deepEqual(names(stillPending.items), []);

    const deleted = await core.deleteNamespacedPod({
      name: "edit-me",
      namespace,
      gracePeriodSeconds: 0,
    });
    assert.equal(deleted.metadata?.name, "edit-me");
  });

  test("ApiException: 404, 409 and 422 carry the Status body", async () => {
    const notFound = await apiFailure(core.readNamespacedConfigMap({ name: "nope", namespace }));
    assert.deepEqual(notFound, {
      code: 404,
      status: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: 'configmaps "nope" not found',
        reason: "NotFound",
        details: { name: "nope", kind: "configmaps" },
        code: 404,
      },
    });

    const body: V1ConfigMap = { metadata: { name: "twice" } };
    await core.createNamespacedConfigMap({ namespace, body });
    const exists = await apiFailure(core.createNamespacedConfigMap({ namespace, body }));
    assert.deepEqual(exists, {
      code: 409,
      status: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: 'configmaps "twice" already exists',
        reason: "AlreadyExists",
        details: { name: "twice", kind: "configmaps" },
        code: 409,
      },
    });

    const invalid = await apiFailure(
      core.createNamespacedConfigMap({ namespace, body: { metadata: { name: "Not_Valid" } } }),
    );
    assert.equal(invalid.code, 422);
    const status = invalid.status as {
      reason: string;
      details: { kind: string; causes: { field: string }[] };
    };
    assert.equal(status.reason, "Invalid");
    assert.equal(status.details.kind, "ConfigMap");
    assert.equal(status.details.causes[0]?.field, "metadata.name");
  });

  test("AppsV1Api Deployment: create, then read and replace its scale", async () => {
    await apps.createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: "web" },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: "web" } },
          template: {
            metadata: { labels: { app: "web" } },
            spec: { containers: [{ name: "app", image: "registry.k8s.io/pause:3.10" }] },
          },
        },
      },
    });
    const first = await apps.readNamespacedDeploymentScale({ name: "web", namespace });
    assert.equal(first.spec?.replicas, 1);
    // The Scale carries the Deployment's resourceVersion, and the deployment controller writes
    // the Deployment's status: read and replace again on a 409, as client-go's RetryOnConflict.
    const scaled = await retryOnConflict(async () => {
      const scale = await apps.readNamespacedDeploymentScale({ name: "web", namespace });
      return apps.replaceNamespacedDeploymentScale({
        name: "web",
        namespace,
        body: { ...scale, spec: { replicas: 3 } },
      });
    });
    assert.equal(scaled.spec?.replicas, 3);
    const deployment = await apps.readNamespacedDeployment({ name: "web", namespace });
    assert.equal(deployment.spec?.replicas, 3);
  });

  test("Watch: sees ADDED, MODIFIED and DELETED for a pod", async () => {
    const list = await core.listNamespacedPod({ namespace });
    const events: string[] = [];
    const watch = new Watch(kc);
    const controller = await watch.watch(
      `/api/v1/namespaces/${namespace}/pods`,
      { resourceVersion: list.metadata?.resourceVersion },
      (type: string, obj: V1Pod) => {
        if (obj.metadata?.name === "watched") events.push(type);
      },
      () => undefined,
    );
    try {
      await core.createNamespacedPod({ namespace, body: pod("watched", { tier: "watch" }) });
      await core.patchNamespacedPod(
        { name: "watched", namespace, body: { metadata: { labels: { seen: "yes" } } } },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      );
      await core.deleteNamespacedPod({ name: "watched", namespace, gracePeriodSeconds: 0 });
      await waitFor("the DELETED event", () => (events.includes("DELETED") ? true : undefined));
    } finally {
      controller.abort();
    }
    assert.equal(events[0], "ADDED");
    assert.ok(events.includes("MODIFIED"), events.join(","));
    assert.equal(events.at(-1), "DELETED");
  });

  test("makeInformer: keeps working across a gantry restart on the same port", async () => {
    const informerNamespace = "informed";
    await core.createNamespace({ body: { metadata: { name: informerNamespace } } });
    await core.createNamespacedConfigMap({
      namespace: informerNamespace,
      body: { metadata: { name: "before-restart" } },
    });
    const added = new Set<string>();
    const errors: unknown[] = [];
    const informer = makeInformer(kc, `/api/v1/namespaces/${informerNamespace}/configmaps`, () =>
      core.listNamespacedConfigMap({ namespace: informerNamespace }),
    );
    informer.on("add", (obj: V1ConfigMap) => added.add(obj.metadata?.name ?? ""));
    // client-node's informer example: on "error", start the informer again after a delay (the
    // example waits 5 s; 500 ms keeps the test short).
    let stopped = false;
    const timers = new Set<NodeJS.Timeout>();
    informer.on("error", (error: unknown) => {
      errors.push(error);
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        informer.start().catch((startError: unknown) => errors.push(startError));
      }, 500);
      timers.add(timer);
    });
    try {
      await informer.start();
      await waitFor("the informer's first list", () =>
        added.has("before-restart") ? true : undefined,
      );

      const port = Number(new URL(gantry.url).port);
      await gantry.stop();
      gantry = await startGantry({ dataDir: gantry.dataDir, port });
      assert.equal(Number(new URL(gantry.url).port), port);

      await core.createNamespacedConfigMap({
        namespace: informerNamespace,
        body: { metadata: { name: "after-restart" } },
      });
      await waitFor("the informer to see a config map created after the restart", () =>
        added.has("after-restart") ? true : undefined,
      );
      // Upstream's root CA publisher writes kube-root-ca.crt into every namespace as well.
      assert.deepEqual([...added].filter((name) => name !== "kube-root-ca.crt").sort(), [
        "after-restart",
        "before-restart",
      ]);
      assert.ok(errors.length > 0, "the informer reported the outage through its error handler");
    } finally {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await informer.stop();
    }
  });
});

describe("@kubernetes/client-node 1.3.0 against gantry up --tls", () => {
  let gantry: GantryProcess;

  before(async () => {
    gantry = await startGantry({ tls: true, storage: "memory" });
  });
  after(async () => {
    await gantry[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  test("KubeConfig.loadFromFile: https with the generated CA and admin client certificate creates and reads", async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(gantry.kubeconfig);
    assert.equal(kc.getCurrentCluster()?.skipTLSVerify, false);
    assert.ok(kc.getCurrentUser()?.certData !== undefined, "the user is a client certificate");
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({
      namespace: "default",
      body: { metadata: { name: "over-tls" }, data: { secure: "yes" } },
    });
    const read = await core.readNamespacedConfigMap({ name: "over-tls", namespace: "default" });
    assert.deepEqual(read.data, { secure: "yes" });
  });

  test("ApiException: a wrong token is a 401", async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(gantry.kubeconfig);
    const user = kc.getCurrentUser();
    assert.ok(user !== null, "user !== null");
    // Without the client certificate: the API server checks a certificate before any token.
    const { certData: _cert, keyData: _key, ...withoutCertificate } = user;
    const wrong = new KubeConfig();
    wrong.loadFromOptions({
      clusters: kc.getClusters(),
      users: [{ ...withoutCertificate, token: "not-the-token" }],
      contexts: kc.getContexts(),
      currentContext: kc.getCurrentContext(),
    });
    const failure = await apiFailure(
      wrong.makeApiClient(CoreV1Api).listNamespacedConfigMap({ namespace: "default" }),
    );
    // client-node 1.x drops the body of a 401 (its generated code passes undefined).
    assert.equal(failure.code, 401);
  });
});
