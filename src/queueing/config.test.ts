import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultQueueingConfig, parseQueueingConfig } from "./config.ts";

test("parseQueueingConfig: no section gives Kueue's defaults (pod framework, system namespaces excluded)", () => {
  assert.deepEqual(parseQueueingConfig(undefined), defaultQueueingConfig);
  assert.deepEqual(
    defaultQueueingConfig.managedJobsNamespaceSelector.matchExpressions?.[0]?.values,
    ["kube-system", "kueue-system"],
  );
});

test("parseQueueingConfig: given keys override defaults, others stay", () => {
  const config = parseQueueingConfig({
    manageJobsWithoutQueueName: true,
    podOptions: { podSelector: { matchLabels: { team: "a" } } },
  });
  assert.equal(config.manageJobsWithoutQueueName, true);
  assert.deepEqual(config.podOptions, { podSelector: { matchLabels: { team: "a" } } });
  assert.deepEqual(config.frameworks, ["pod"]);
  assert.equal(config.enabled, true);
});

test("parseQueueingConfig: Kueue's controller.groupKindConcurrency, as Kueue ships it, sets the pod reconciler's workers over Kueue's defaults", () => {
  assert.deepEqual(defaultQueueingConfig.groupKindConcurrency, {
    "Job.batch": 5,
    Pod: 5,
    "Workload.kueue.x-k8s.io": 5,
    "LocalQueue.kueue.x-k8s.io": 1,
    "Cohort.kueue.x-k8s.io": 1,
    "ClusterQueue.kueue.x-k8s.io": 1,
    "ResourceFlavor.kueue.x-k8s.io": 1,
  });
  const shipped = parseQueueingConfig({
    controller: {
      groupKindConcurrency: {
        "Job.batch": 5,
        Pod: 5,
        "Workload.kueue.x-k8s.io": 5,
        "LocalQueue.kueue.x-k8s.io": 1,
        "Cohort.kueue.x-k8s.io": 1,
        "ClusterQueue.kueue.x-k8s.io": 1,
        "ResourceFlavor.kueue.x-k8s.io": 1,
      },
    },
  });
  assert.deepEqual(shipped.groupKindConcurrency, defaultQueueingConfig.groupKindConcurrency);
  const raised = parseQueueingConfig({ controller: { groupKindConcurrency: { Pod: 12 } } });
  assert.equal(raised.groupKindConcurrency.Pod, 12);
  assert.equal(raised.groupKindConcurrency["Workload.kueue.x-k8s.io"], 5, "the rest keep theirs");
});

const bad = [
  { name: "an unknown key", raw: { manage: true }, want: /^queueing\.manage: unknown field/ },
  {
    name: "an unknown controller field",
    raw: { controller: { concurrency: 3 } },
    want: /^queueing\.controller\.concurrency: unknown field; known fields are groupKindConcurrency$/,
  },
  {
    name: "an unknown group kind",
    raw: { controller: { groupKindConcurrency: { "Job.batch": 5, Deployment: 2 } } },
    want: /^queueing\.controller\.groupKindConcurrency\.Deployment: unknown group kind; known group kinds are Job\.batch, Pod, /,
  },
  {
    name: "zero workers",
    raw: { controller: { groupKindConcurrency: { Pod: 0 } } },
    want: /^queueing\.controller\.groupKindConcurrency\.Pod: must be a whole number of workers, at least 1$/,
  },
  {
    name: "a fractional worker count",
    raw: { controller: { groupKindConcurrency: { Pod: 2.5 } } },
    want: /^queueing\.controller\.groupKindConcurrency\.Pod: must be a whole number of workers, at least 1$/,
  },
  {
    name: "a non-boolean flag",
    raw: { enabled: "yes" },
    want: /^queueing\.enabled: must be true or false$/,
  },
  {
    name: "an unknown framework",
    raw: { frameworks: ["pod", "spark"] },
    want: /integration "spark" is not known/,
  },
  {
    name: "a selector with an unknown field",
    raw: { podOptions: { podSelector: { labels: {} } } },
    want: /^queueing\.podOptions\.podSelector\.labels: unknown field/,
  },
] as const;

for (const c of bad) {
  test(`parseQueueingConfig: rejects ${c.name}`, () => {
    assert.throws(
      () => parseQueueingConfig(c.raw),
      (error: unknown) => error instanceof TypeError && c.want.test(error.message),
    );
  });
}
