import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import type { Job } from "./job.ts";
import { defaultJob, generateJobSelector } from "./job-defaults.ts";
import { validateJob, validateJobUpdate } from "./job-validation.ts";
import { jobKind } from "./kinds.ts";

const uid = "0b6e4c3e-1111-2222-3333-444455556666";

function makeJob(
  edit: (j: Job) => void = () => {},
  beforeCreate: (j: Job) => void = () => {},
): Job {
  const job: Job = {
    metadata: { name: "pi", namespace: "default", uid, resourceVersion: "1" },
    spec: {
      template: { spec: { restartPolicy: "Never", containers: [{ name: "pi", image: "perl" }] } },
    },
  };
  beforeCreate(job);
  defaultJob(job);
  generateJobSelector(job, uid);
  edit(job);
  return job;
}

test("defaultJob: a plain job gets completions 1, parallelism 1 and the upstream defaults", () => {
  const job = makeJob();
  assert.equal(job.spec.completions, 1);
  assert.equal(job.spec.parallelism, 1);
  assert.equal(job.spec.backoffLimit, 6);
  assert.equal(job.spec.completionMode, "NonIndexed");
  assert.equal(job.spec.suspend, false);
  assert.equal(job.spec.manualSelector, false);
  assert.equal(job.spec.podReplacementPolicy, "TerminatingOrFailed");
});

const parallelCases = [
  {
    name: "parallelism alone leaves completions unset",
    spec: { parallelism: 3 },
    want: [undefined, 3],
  },
  { name: "completions alone defaults parallelism to 1", spec: { completions: 5 }, want: [5, 1] },
] as const;

for (const c of parallelCases) {
  test(`defaultJob: ${c.name}`, () => {
    const job = makeJob(
      () => {},
      (j) => Object.assign(j.spec, c.spec),
    );
    assert.deepEqual([job.spec.completions, job.spec.parallelism], c.want);
  });
}

test("defaultJob: backoffLimitPerIndex makes backoffLimit MaxInt32; podFailurePolicy makes Failed", () => {
  const job = makeJob(
    () => {},
    (j) => {
      j.spec.backoffLimitPerIndex = 1;
      j.spec.podFailurePolicy = {
        rules: [{ action: "Ignore", onPodConditions: [{ type: "DisruptionTarget" }] }],
      };
    },
  );
  assert.equal(job.spec.backoffLimit, 2147483647);
  assert.equal(job.spec.podReplacementPolicy, "Failed");
  assert.equal(job.spec.podFailurePolicy?.rules[0]?.onPodConditions?.[0]?.status, "True");
});

test("generateJobSelector: labels the template with both key spellings and selects the uid", () => {
  const job = makeJob();
  assert.deepEqual(job.spec.selector, {
    matchLabels: { "batch.kubernetes.io/controller-uid": uid },
  });
  assert.deepEqual(job.spec.template.metadata?.labels, {
    "job-name": "pi",
    "batch.kubernetes.io/job-name": "pi",
    "controller-uid": uid,
    "batch.kubernetes.io/controller-uid": uid,
  });
});

test("generateJobSelector: manualSelector true leaves selector and labels alone", () => {
  const job = makeJob(
    () => {},
    (j) => {
      j.spec.manualSelector = true;
      j.spec.selector = { matchLabels: { app: "pi" } };
      j.spec.template.metadata = { labels: { app: "pi" } };
    },
  );
  assert.deepEqual(job.spec.selector, { matchLabels: { app: "pi" } });
  assert.deepEqual(validateJob(job), []);
});

const cases: { name: string; edit: (j: Job) => void; want: string[] }[] = [
  { name: "a generated job is valid", edit: () => {}, want: [] },
  {
    name: "restartPolicy Always is rejected as upstream does",
    edit: (j) => {
      if (j.spec.template.spec !== undefined) j.spec.template.spec.restartPolicy = "Always";
    },
    want: [`spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`],
  },
  {
    name: "negative backoffLimit",
    edit: (j) => {
      j.spec.backoffLimit = -1;
    },
    want: ["spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"],
  },
  {
    name: "Indexed without completions",
    edit: (j) => {
      j.spec.completionMode = "Indexed";
      delete j.spec.completions;
    },
    want: ["spec.completions: Required value: when completion mode is Indexed"],
  },
  {
    name: "a user selector without manualSelector is not auto-generated",
    edit: (j) => {
      j.spec.selector = { matchLabels: { "job-name": "pi" } };
    },
    want: [
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"job-name":"pi"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated',
    ],
  },
  {
    name: "a conflicting job-name label",
    edit: (j) => {
      const labels = j.spec.template.metadata?.labels;
      if (labels !== undefined) labels["job-name"] = "other";
    },
    want: [
      `spec.template.metadata.labels[job-name]: Invalid value: map[string]string{"batch.kubernetes.io/controller-uid":"${uid}", "batch.kubernetes.io/job-name":"pi", "controller-uid":"${uid}", "job-name":"other"}: must be 'pi'`,
    ],
  },
];

for (const c of cases) {
  test(`validateJob: ${c.name}`, () => {
    assert.deepEqual(validateJob(makeJob(c.edit)).map(fieldErrorString), c.want);
  });
}

test("validateJobUpdate: completions and selector are immutable", () => {
  const old = makeJob();
  const next = makeJob((j) => {
    j.spec.completions = 3;
  });
  assert.deepEqual(validateJobUpdate(next, old).map(fieldErrorString), [
    "spec.completions: Invalid value: 3: field is immutable",
  ]);
});

test("validateJobUpdate: a suspended, never-started job may change scheduling directives only", () => {
  const old = makeJob((j) => {
    j.spec.suspend = true;
  });
  const next = makeJob((j) => {
    j.spec.suspend = false;
    if (j.spec.template.spec !== undefined) j.spec.template.spec.nodeSelector = { zone: "a" };
  });
  assert.deepEqual(validateJobUpdate(next, old), []);
  const running = makeJob((j) => {
    if (j.spec.template.spec !== undefined) j.spec.template.spec.nodeSelector = { zone: "a" };
  });
  const errors = validateJobUpdate(running, makeJob()).map((e) => `${e.field}: ${e.detail}`);
  assert.deepEqual(errors, ["spec.template: field is immutable"]);
});

test("jobKind: served as jobs in category all with status and status.successful", () => {
  assert.equal(jobKind.resource, "jobs");
  assert.deepEqual(jobKind.categories, ["all"]);
  assert.deepEqual(jobKind.shortNames, []);
  assert.equal(jobKind.subresources.status, true);
  assert.deepEqual(jobKind.selectableFields?.(makeJob()), { "status.successful": "0" });
});
