import assert from "node:assert/strict";
import { test } from "node:test";
import { fieldErrorString, type Pod } from "../../api/index.ts";
import { makePod } from "../../testing/index.ts";
import { defaultQueueingConfig, type QueueingConfig } from "../config.ts";
import {
  defaultPod,
  type PodWebhookEnv,
  validatePodCreate,
  validatePodUpdate,
} from "./pod-webhook.ts";
import { roleHash } from "./role-hash.ts";

function env(
  options: { config?: Partial<QueueingConfig>; defaultQueue?: boolean } = {},
): PodWebhookEnv {
  const namespaces: Record<string, Record<string, string>> = {
    default: { "kubernetes.io/metadata.name": "default", team: "a" },
    "kube-system": { "kubernetes.io/metadata.name": "kube-system" },
  };
  return {
    config: { ...defaultQueueingConfig, ...options.config },
    namespaceLabels: (ns) => namespaces[ns],
    hasLocalQueue: (ns, name) =>
      options.defaultQueue === true && ns === "default" && name === "default",
  };
}

const queued = () =>
  makePod("p").label("kueue.x-k8s.io/queue-name", "user-queue").requests({ cpu: "1" });

test("defaultPod: a pod with a queue name gets the managed label, finalizer, admission gate and role hash", () => {
  const result = defaultPod(queued().obj(), env());
  assert.equal(result.kind, "mutated");
  const pod = (result as { pod: Pod }).pod;
  assert.equal(pod.metadata.labels?.["kueue.x-k8s.io/managed"], "true");
  assert.deepEqual(pod.metadata.finalizers, ["kueue.x-k8s.io/managed"]);
  assert.deepEqual(pod.spec.schedulingGates, [{ name: "kueue.x-k8s.io/admission" }]);
  assert.equal(
    pod.metadata.annotations?.["kueue.x-k8s.io/role-hash"],
    roleHash(queued().obj().spec),
  );
});

const unchanged = [
  { name: "a pod without a queue name", pod: makePod("p").obj(), env: env() },
  {
    name: "a pod in kube-system (managedJobsNamespaceSelector)",
    pod: queued().namespace("kube-system").obj(),
    env: env(),
  },
  {
    name: "a pod the podOptions.podSelector does not select",
    pod: queued().obj(),
    env: env({ config: { podOptions: { podSelector: { matchLabels: { app: "x" } } } } }),
  },
  {
    name: "a pod owned by a Job while batch/job is enabled",
    pod: queued()
      .ownerReference({
        apiVersion: "batch/v1",
        kind: "Job",
        name: "j",
        uid: "u",
        controller: true,
      })
      .obj(),
    env: env({ config: { frameworks: ["pod", "batch/job"] } }),
  },
] as const;

for (const c of unchanged) {
  test(`defaultPod: leaves ${c.name} unchanged`, () => {
    assert.equal(defaultPod(c.pod, c.env).kind, "unchanged");
  });
}

test("defaultPod: manageJobsWithoutQueueName manages a pod without a queue name", () => {
  assert.equal(
    defaultPod(makePod("p").obj(), env({ config: { manageJobsWithoutQueueName: true } })).kind,
    "mutated",
  );
});

test("defaultPod: LocalQueueDefaulting puts a pod without a queue name in the namespace's default LocalQueue", () => {
  const result = defaultPod(makePod("p").obj(), env({ defaultQueue: true }));
  assert.equal(
    (result as { pod: Pod }).pod.metadata.labels?.["kueue.x-k8s.io/queue-name"],
    "default",
  );
});

test("defaultPod: keeps a role-hash annotation the pod already carries", () => {
  const result = defaultPod(queued().annotation("kueue.x-k8s.io/role-hash", "leader").obj(), env());
  assert.equal(
    (result as { pod: Pod }).pod.metadata.annotations?.["kueue.x-k8s.io/role-hash"],
    "leader",
  );
});

const group = () =>
  queued()
    .label("kueue.x-k8s.io/pod-group-name", "g")
    .annotation("kueue.x-k8s.io/pod-group-total-count", "2");

const createCases = [
  { name: "accepts a valid group member", pod: group().obj(), want: [] },
  {
    name: "rejects a managed label other than true",
    pod: queued().label("kueue.x-k8s.io/managed", "false").obj(),
    want: [
      "metadata.labels[kueue.x-k8s.io/managed]: Forbidden: managed label value can only be 'true'",
    ],
  },
  {
    name: "rejects a group name without a total count",
    pod: queued().label("kueue.x-k8s.io/pod-group-name", "g").obj(),
    want: [
      "metadata.annotations[kueue.x-k8s.io/pod-group-total-count]: Required value: both the 'kueue.x-k8s.io/pod-group-total-count' annotation and the 'kueue.x-k8s.io/pod-group-name' label should be set",
    ],
  },
  {
    name: "rejects a total count without a group name",
    pod: queued().annotation("kueue.x-k8s.io/pod-group-total-count", "2").obj(),
    want: [
      "metadata.labels[kueue.x-k8s.io/pod-group-name]: Required value: both the 'kueue.x-k8s.io/pod-group-total-count' annotation and the 'kueue.x-k8s.io/pod-group-name' label should be set",
    ],
  },
  {
    name: "rejects a total count that is not a number with Go's parse error",
    pod: group().annotation("kueue.x-k8s.io/pod-group-total-count", "two").obj(),
    want: [
      'metadata.annotations[kueue.x-k8s.io/pod-group-total-count]: Invalid value: "two": strconv.Atoi: parsing "two": invalid syntax',
    ],
  },
  {
    name: "rejects a total count of zero",
    pod: group().annotation("kueue.x-k8s.io/pod-group-total-count", "0").obj(),
    want: [
      "metadata.annotations[kueue.x-k8s.io/pod-group-total-count]: Invalid value: \"0\": incorrect annotation value 'kueue.x-k8s.io/pod-group-total-count=0': group total count should be greater than zero",
    ],
  },
  {
    name: "rejects a queue name that is not a DNS subdomain",
    pod: makePod("p").label("kueue.x-k8s.io/queue-name", "Bad_Queue").obj(),
    want: [
      "metadata.labels[kueue.x-k8s.io/queue-name]: Invalid value: \"Bad_Queue\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ],
  },
] as const;

for (const c of createCases) {
  test(`validatePodCreate: ${c.name}`, () => {
    assert.deepEqual(validatePodCreate(c.pod, env()).errors.map(fieldErrorString), c.want);
  });
}

const running = () => group().schedulingGates([]).phase("Running");
const updateCases = [
  {
    name: "rejects changing the queue of an ungated pod",
    old: running().obj(),
    pod: running().label("kueue.x-k8s.io/queue-name", "other").obj(),
    want: [
      'metadata.labels[kueue.x-k8s.io/queue-name]: Invalid value: "other": field is immutable',
    ],
  },
  {
    name: "allows changing the queue of a gated pod",
    old: group().schedulingGates(["kueue.x-k8s.io/admission"]).obj(),
    pod: group()
      .schedulingGates(["kueue.x-k8s.io/admission"])
      .label("kueue.x-k8s.io/queue-name", "other")
      .obj(),
    want: [],
  },
  {
    name: "rejects changing the group name",
    old: group().schedulingGates(["kueue.x-k8s.io/admission"]).obj(),
    pod: group()
      .schedulingGates(["kueue.x-k8s.io/admission"])
      .label("kueue.x-k8s.io/pod-group-name", "h")
      .obj(),
    want: [
      'metadata.labels[kueue.x-k8s.io/pod-group-name]: Invalid value: "h": field is immutable',
    ],
  },
  {
    name: "rejects making an unretriable group retriable",
    old: running().annotation("kueue.x-k8s.io/retriable-in-group", "false").obj(),
    pod: running().obj(),
    want: [
      "metadata.annotations[kueue.x-k8s.io/retriable-in-group]: Forbidden: unretriable pod group can't be converted to retriable",
    ],
  },
] as const;

for (const c of updateCases) {
  test(`validatePodUpdate: ${c.name}`, () => {
    assert.deepEqual(validatePodUpdate(c.old, c.pod, env()).errors.map(fieldErrorString), c.want);
  });
}

const worker = () =>
  queued()
    .label("kueue.x-k8s.io/pod-group-name", "spark")
    .label("kueue.x-k8s.io/pod-group-role", "workers");
const sparkDriver = () =>
  queued()
    .label("kueue.x-k8s.io/pod-group-name", "spark")
    .annotation(
      "kueue.x-k8s.io/pod-group-sets",
      '[{"name":"driver","count":1},{"name":"workers","count":2,"template":{"spec":{"containers":[{"name":"w"}]}}}]',
    );

test("defaultPod: a driver runs as its own pod set and a worker as its role (role-hash annotation)", () => {
  const driverPod = defaultPod(sparkDriver().obj(), env());
  const workerPod = defaultPod(worker().obj(), env());
  assert.equal(
    (driverPod as { pod: Pod }).pod.metadata.annotations?.["kueue.x-k8s.io/role-hash"],
    "driver",
  );
  assert.equal(
    (workerPod as { pod: Pod }).pod.metadata.annotations?.["kueue.x-k8s.io/role-hash"],
    "workers",
  );
});

test("defaultPod: gangScheduleAdmittedGroups points a group's pods at the group's PodGroup", () => {
  const pod = queued()
    .label("kueue.x-k8s.io/pod-group-name", "g")
    .annotation("kueue.x-k8s.io/pod-group-total-count", "2")
    .obj();
  const on = defaultPod(pod, env({ config: { gangScheduleAdmittedGroups: true } }));
  assert.deepEqual((on as { pod: Pod }).pod.spec.workloadRef, { name: "g", podGroupName: "g" });
  const off = defaultPod(pod, env());
  assert.equal((off as { pod: Pod }).pod.spec.workloadRef, undefined);
});

const storyThree = [
  { name: "a worker needs no total count", pod: worker().obj(), want: [] },
  { name: "a valid driver", pod: sparkDriver().obj(), want: [] },
  {
    name: "a role without a group",
    pod: queued().label("kueue.x-k8s.io/pod-group-role", "workers").obj(),
    want: [
      "metadata.labels[kueue.x-k8s.io/pod-group-name]: Required value: the 'kueue.x-k8s.io/pod-group-role' label needs the 'kueue.x-k8s.io/pod-group-name' label",
    ],
  },
  {
    name: "a role that is not a DNS label",
    pod: worker().label("kueue.x-k8s.io/pod-group-role", "Work_ers").obj(),
    want: [
      "metadata.labels[kueue.x-k8s.io/pod-group-role]: Invalid value: \"Work_ers\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ],
  },
] as const;

for (const c of storyThree) {
  test(`validatePodCreate: ${c.name}`, () => {
    assert.deepEqual(validatePodCreate(c.pod, env()).errors.map(fieldErrorString), c.want);
  });
}

test("validatePodUpdate: the pod sets and the role cannot change", () => {
  const old = sparkDriver().label("kueue.x-k8s.io/pod-group-role", "driver").obj();
  const next = structuredClone(old);
  next.metadata.annotations = {
    ...next.metadata.annotations,
    "kueue.x-k8s.io/pod-group-sets": '[{"name":"driver","count":1}]',
  };
  next.metadata.labels = { ...next.metadata.labels, "kueue.x-k8s.io/pod-group-role": "workers" };
  const messages = validatePodUpdate(old, next, env()).errors.map(fieldErrorString);
  assert.ok(
    messages.includes(
      `metadata.annotations[kueue.x-k8s.io/pod-group-sets]: Invalid value: "[{\\"name\\":\\"driver\\",\\"count\\":1}]": field is immutable`,
    ),
    JSON.stringify(messages),
  );
  assert.ok(
    messages.includes(
      'metadata.labels[kueue.x-k8s.io/pod-group-role]: Invalid value: "workers": field is immutable',
    ),
    JSON.stringify(messages),
  );
});
