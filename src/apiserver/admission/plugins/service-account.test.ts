import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { KubeObject, Pod, Volume } from "../../../api/index.ts";
import { FakeClock } from "../../../testing/index.ts";
import { type JsonObject, seededRandom } from "../../../util/index.ts";
import type { AdmissionAttributes, AdmissionDecision, ObjectReader } from "../admission.ts";
import { newServiceAccountAdmission, tokenVolume } from "./service-account.ts";

/** Objects by `segment/namespace/name`; `late` hides one from the cache and early live lookups. */
function readerOf(
  objects: Record<string, JsonObject>,
  late: { key: string; visibleFromLookup: number } | undefined = undefined,
) {
  let freshLookups = 0;
  const visible = (key: string): JsonObject | undefined =>
    late !== undefined && key === late.key && freshLookups < late.visibleFromLookup
      ? undefined
      : objects[key];
  const reader: ObjectReader = {
    get: (segment, namespace, name) =>
      late?.key === `${segment}/${namespace}/${name}`
        ? undefined
        : objects[`${segment}/${namespace}/${name}`],
    list: () => [],
    getFresh: async (segment, namespace, name) => {
      if (segment === "serviceaccounts") freshLookups++;
      return visible(`${segment}/${namespace}/${name}`);
    },
  };
  return { reader, lookups: () => freshLookups };
}

const namespaces: Record<string, JsonObject> = {
  "namespaces//team": { metadata: { name: "team" }, status: { phase: "Active" } },
  "namespaces//leaving": {
    metadata: { name: "leaving", deletionTimestamp: "2026-01-01T00:00:00Z" },
    status: { phase: "Terminating" },
  },
};
const account = (name: string, extra: JsonObject = {}): Record<string, JsonObject> => ({
  [`serviceaccounts/team/${name}`]: { metadata: { name, namespace: "team" }, ...extra },
});

function attributes(pod: object, namespace = "team"): AdmissionAttributes {
  return {
    operation: "CREATE",
    group: "",
    version: "v1",
    kind: "Pod",
    resource: "pods",
    subresource: "",
    namespace,
    name: "web",
    object: structuredClone({ metadata: { name: "web", namespace }, ...pod }) as KubeObject,
    oldObject: undefined,
    dryRun: false,
    userInfo: { username: "u", groups: [] },
  };
}

const containers = [{ name: "app", image: "nginx" }];

async function admitPod(
  objects: Record<string, JsonObject>,
  pod: object,
  namespace = "team",
): Promise<{ decision: AdmissionDecision; pod: Pod }> {
  const plugin = newServiceAccountAdmission(readerOf(objects).reader, {
    clock: new FakeClock(),
    random: seededRandom(1),
  });
  const a = attributes(pod, namespace);
  assert.ok(plugin.handles(a), "the plugin handles pod creation");
  let decision = await plugin.mutate?.(a);
  if (decision?.allowed === true) decision = await plugin.validate?.(a);
  return { decision: decision ?? { allowed: true }, pod: a.object as Pod };
}

const message = (decision: AdmissionDecision): string =>
  decision.allowed ? "allowed" : `${decision.error.code} ${decision.error.message}`;

describe("ServiceAccount admission", () => {
  test("defaults the service account and mounts the projected token volume everywhere", async () => {
    const { decision, pod } = await admitPod(
      { ...namespaces, ...account("default") },
      { spec: { initContainers: [{ name: "init", image: "busybox" }], containers } },
    );
    assert.equal(message(decision), "allowed");
    assert.equal(pod.spec.serviceAccountName, "default");
    assert.equal(pod.spec.serviceAccount, "default");
    const volumeName = pod.spec.volumes?.[0]?.name ?? "";
    assert.match(volumeName, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const want: Volume = {
      name: volumeName,
      projected: {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
          { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
          {
            downwardAPI: {
              items: [
                {
                  path: "namespace",
                  fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" },
                },
              ],
            },
          },
        ],
        defaultMode: 420,
      },
    };
    assert.deepEqual(pod.spec.volumes, [want]);
    assert.deepEqual(tokenVolume(volumeName), want);
    const mount = {
      name: volumeName,
      readOnly: true,
      mountPath: "/var/run/secrets/kubernetes.io/serviceaccount",
    };
    assert.deepEqual(pod.spec.initContainers?.[0]?.volumeMounts, [mount]);
    assert.deepEqual(pod.spec.containers[0]?.volumeMounts, [mount]);
  });

  const automount = [
    { name: "the pod turns automount off", pod: false, sa: undefined, mounted: false },
    { name: "the service account turns automount off", pod: undefined, sa: false, mounted: false },
    {
      name: "the pod's true wins over the service account's false",
      pod: true,
      sa: false,
      mounted: true,
    },
    {
      name: "the pod's false wins over the service account's true",
      pod: false,
      sa: true,
      mounted: false,
    },
  ];
  for (const c of automount) {
    test(`automountServiceAccountToken: ${c.name}`, async () => {
      const { decision, pod } = await admitPod(
        {
          ...namespaces,
          ...account("default", c.sa === undefined ? {} : { automountServiceAccountToken: c.sa }),
        },
        {
          spec: {
            containers,
            ...(c.pod === undefined ? {} : { automountServiceAccountToken: c.pod }),
          },
        },
      );
      assert.equal(message(decision), "allowed");
      assert.equal((pod.spec.volumes ?? []).length === 1, c.mounted);
      assert.equal(pod.spec.containers[0]?.volumeMounts !== undefined, c.mounted);
    });
  }

  test("a container with something at the token path is left alone; an existing token volume is reused", async () => {
    const own = { name: "mine", mountPath: "/var/run/secrets/kubernetes.io/serviceaccount" };
    const skipped = await admitPod(
      { ...namespaces, ...account("default") },
      { spec: { containers: [{ ...containers[0], volumeMounts: [own] }] } },
    );
    assert.equal(skipped.pod.spec.volumes, undefined, "no container needs the volume");
    assert.deepEqual(skipped.pod.spec.containers[0]?.volumeMounts, [own]);
    const existing: Volume = { name: "kube-api-access-abcde", emptyDir: {} };
    const reused = await admitPod(
      { ...namespaces, ...account("default") },
      { spec: { containers, volumes: [existing] } },
    );
    assert.deepEqual(reused.pod.spec.volumes, [existing]);
    assert.equal(reused.pod.spec.containers[0]?.volumeMounts?.[0]?.name, "kube-api-access-abcde");
  });

  test("a pod without image pull secrets gets the service account's", async () => {
    const { pod } = await admitPod(
      { ...namespaces, ...account("builder", { imagePullSecrets: [{ name: "registry" }] }) },
      { spec: { serviceAccountName: "builder", containers } },
    );
    assert.deepEqual(pod.spec.imagePullSecrets, [{ name: "registry" }]);
  });

  const refusals = [
    {
      name: "a missing service account",
      objects: namespaces,
      pod: { spec: { serviceAccountName: "builder", containers } },
      want: '403 pods "web" is forbidden: error looking up service account team/builder: serviceaccount "builder" not found',
    },
    {
      name: "a generateName pod's missing service account, naming the pod by its prefix",
      objects: namespaces,
      pod: {
        metadata: { name: "web-x7k2p", generateName: "web-", namespace: "team" },
        spec: { serviceAccountName: "builder", containers },
      },
      want: '403 pods "web-" is forbidden: error looking up service account team/builder: serviceaccount "builder" not found',
    },
    {
      name: "a mirror pod naming a service account",
      objects: { ...namespaces, ...account("default") },
      pod: {
        metadata: {
          name: "web",
          namespace: "team",
          annotations: { "kubernetes.io/config.mirror": "x" },
        },
        spec: { serviceAccountName: "default", containers },
      },
      want: '403 pods "web" is forbidden: a mirror pod may not reference service accounts',
    },
    {
      name: "a mirror pod referencing a secret",
      objects: namespaces,
      pod: {
        metadata: {
          name: "web",
          namespace: "team",
          annotations: { "kubernetes.io/config.mirror": "x" },
        },
        spec: { containers: [{ ...containers[0], envFrom: [{ secretRef: { name: "s" } }] }] },
      },
      want: '403 pods "web" is forbidden: a mirror pod may not reference secrets',
    },
    {
      name: "a secret the service account does not list, under kubernetes.io/enforce-mountable-secrets",
      objects: {
        ...namespaces,
        ...account("default", {
          metadata: {
            name: "default",
            namespace: "team",
            annotations: { "kubernetes.io/enforce-mountable-secrets": "true" },
          },
          secrets: [{ name: "allowed" }],
        }),
      },
      pod: { spec: { containers, volumes: [{ name: "v", secret: { secretName: "other" } }] } },
      want: '403 pods "web" is forbidden: volume with secret.secretName="other" is not allowed because service account default does not reference that secret',
    },
  ];
  for (const c of refusals) {
    test(`refuses ${c.name}`, async () => {
      const { decision } = await admitPod(c.objects, c.pod as object);
      assert.equal(message(decision), c.want);
    });
  }

  test("a pod in a missing or terminating namespace is left to NamespaceLifecycle", async () => {
    for (const namespace of ["missing", "leaving"]) {
      const { decision, pod } = await admitPod(namespaces, { spec: { containers } }, namespace);
      assert.equal(message(decision), "allowed");
      assert.equal(pod.spec.volumes, undefined, `${namespace}: untouched`);
    }
  });

  test("the default service account is looked up live up to ten times before refusing", async () => {
    const clock = new FakeClock();
    const late = readerOf(
      { ...namespaces, ...account("default") },
      {
        key: "serviceaccounts/team/default",
        visibleFromLookup: 4,
      },
    );
    const plugin = newServiceAccountAdmission(late.reader, { clock, random: seededRandom(2) });
    const a = attributes({ spec: { containers } });
    const pending = Promise.resolve(plugin.mutate?.(a));
    let settled = false;
    pending.then(() => (settled = true)).catch(() => (settled = true));
    for (let i = 0; i < 20 && !settled; i++) await clock.advance(200);
    assert.equal(message((await pending) ?? { allowed: true }), "allowed");
    assert.equal(late.lookups(), 4, "found on the fourth live lookup");

    const never = readerOf(namespaces);
    const refusing = newServiceAccountAdmission(never.reader, { clock, random: seededRandom(2) });
    const refused = Promise.resolve(refusing.mutate?.(attributes({ spec: { containers } })));
    let done = false;
    refused.then(() => (done = true)).catch(() => (done = true));
    for (let i = 0; i < 20 && !done; i++) await clock.advance(200);
    assert.equal(
      message((await refused) ?? { allowed: true }),
      '403 pods "web" is forbidden: error looking up service account team/default: serviceaccount "default" not found',
    );
    assert.equal(never.lookups(), 10);
  });

  test("handles only the creation of pods themselves", () => {
    const plugin = newServiceAccountAdmission(readerOf(namespaces).reader, {
      clock: new FakeClock(),
      random: seededRandom(1),
    });
    assert.equal(plugin.handles({ ...attributes({}), operation: "UPDATE" }), false);
    assert.equal(plugin.handles({ ...attributes({}), subresource: "binding" }), false);
    assert.equal(plugin.handles({ ...attributes({}), resource: "configmaps" }), false);
  });
});
