import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import { gangSchedulingAnnotation, type Job } from "./job.ts";
import { defaultJob, generateJobSelector } from "./job-defaults.ts";
import { validateJob, validateJobUpdate } from "./job-validation.ts";

const uid = "0b6e4c3e-1111-2222-3333-444455556666";

/** A defaulted Job `train` with parallelism 4, edited by `edit` before defaulting. */
function makeJob(edit: (j: Job) => void = () => {}): Job {
  const job: Job = {
    metadata: { name: "train", namespace: "default", uid, resourceVersion: "1" },
    spec: {
      parallelism: 4,
      completions: 4,
      template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] } },
    },
  };
  edit(job);
  defaultJob(job);
  generateJobSelector(job, uid);
  return job;
}

const createCases: { name: string; edit: (j: Job) => void; want: string[] }[] = [
  {
    name: "a gang without minCount is valid",
    edit: (j) => {
      j.spec.scheduling = { schedulingPolicy: { gang: {} } };
    },
    want: [],
  },
  {
    name: "a basic policy is valid",
    edit: (j) => {
      j.spec.scheduling = { schedulingPolicy: { basic: {} } };
    },
    want: [],
  },
  {
    name: "scheduling without a policy is valid (basic)",
    edit: (j) => {
      j.spec.scheduling = {};
    },
    want: [],
  },
  {
    name: "an empty policy names neither variant",
    edit: (j) => {
      j.spec.scheduling = { schedulingPolicy: {} };
    },
    want: [
      'spec.scheduling.schedulingPolicy: Invalid value: "": must specify one of: `basic`, `gang`',
    ],
  },
  {
    name: "both variants at once",
    edit: (j) => {
      j.spec.scheduling = { schedulingPolicy: { basic: {}, gang: {} } };
    },
    want: [
      'spec.scheduling.schedulingPolicy: Invalid value: "{basic, gang}": exactly one of `basic`, `gang` is required, but multiple fields are set',
    ],
  },
  {
    name: "minCount zero",
    edit: (j) => {
      j.spec.scheduling = { schedulingPolicy: { gang: { minCount: 0 } } };
    },
    want: [
      "spec.scheduling.schedulingPolicy.gang.minCount: Invalid value: 0: must be greater than or equal to 1",
    ],
  },
  {
    name: "minCount above parallelism could never form",
    edit: (j) => {
      j.spec.scheduling = { schedulingPolicy: { gang: { minCount: 5 } } };
    },
    want: [
      "spec.scheduling.schedulingPolicy.gang.minCount: Invalid value: 5: must be less than or equal to parallelism (4)",
    ],
  },
  {
    name: "scheduling next to a user-managed workloadRef",
    edit: (j) => {
      j.spec.scheduling = { schedulingPolicy: { gang: {} } };
      if (j.spec.template.spec !== undefined) {
        j.spec.template.spec.workloadRef = { name: "mine", podGroupName: "mine-0" };
      }
    },
    want: [
      "spec.scheduling: Forbidden: may not be set when `spec.template.spec.workloadRef` is set",
    ],
  },
  {
    name: "the annotation accepts true",
    edit: (j) => {
      j.metadata.annotations = { [gangSchedulingAnnotation]: "true" };
    },
    want: [],
  },
  {
    name: "the annotation rejects anything but true and false",
    edit: (j) => {
      j.metadata.annotations = { [gangSchedulingAnnotation]: "yes" };
    },
    want: [
      'metadata.annotations[scheduling.gantry.dev/gang]: Unsupported value: "yes": supported values: "false", "true"',
    ],
  },
];

for (const c of createCases) {
  test(`validateJob: ${c.name}`, () => {
    assert.deepEqual(validateJob(makeJob(c.edit)).map(fieldErrorString), c.want);
  });
}

const updateCases: {
  name: string;
  old: (j: Job) => void;
  next: (j: Job) => void;
  want: string[];
}[] = [
  {
    name: "spec.scheduling cannot be added",
    old: () => {},
    next: (j) => {
      j.spec.scheduling = { schedulingPolicy: { gang: {} } };
    },
    want: ['spec.scheduling: Invalid value: {"schedulingPolicy":{"gang":{}}}: field is immutable'],
  },
  {
    name: "a gang's minCount cannot change",
    old: (j) => {
      j.spec.scheduling = { schedulingPolicy: { gang: { minCount: 2 } } };
    },
    next: (j) => {
      j.spec.scheduling = { schedulingPolicy: { gang: { minCount: 3 } } };
    },
    want: [
      'spec.scheduling: Invalid value: {"schedulingPolicy":{"gang":{"minCount":3}}}: field is immutable',
    ],
  },
  {
    name: "parallelism is frozen while the gang's minCount follows it",
    old: (j) => {
      j.spec.scheduling = { schedulingPolicy: { gang: {} } };
    },
    next: (j) => {
      j.spec.scheduling = { schedulingPolicy: { gang: {} } };
      j.spec.parallelism = 2;
    },
    want: [
      "spec.parallelism: Invalid value: 2: field is immutable while the gang's minCount follows it",
    ],
  },
  {
    name: "parallelism is frozen for the annotation's gang too",
    old: (j) => {
      j.metadata.annotations = { [gangSchedulingAnnotation]: "true" };
    },
    next: (j) => {
      j.metadata.annotations = { [gangSchedulingAnnotation]: "true" };
      j.spec.parallelism = 3;
    },
    want: [
      "spec.parallelism: Invalid value: 3: field is immutable while the gang's minCount follows it",
    ],
  },
  {
    name: "parallelism may change above an explicit minCount",
    old: (j) => {
      j.spec.scheduling = { schedulingPolicy: { gang: { minCount: 2 } } };
    },
    next: (j) => {
      j.spec.scheduling = { schedulingPolicy: { gang: { minCount: 2 } } };
      j.spec.parallelism = 3;
    },
    want: [],
  },
  {
    name: "the annotation is checked on update",
    old: () => {},
    next: (j) => {
      j.metadata.annotations = { [gangSchedulingAnnotation]: "True" };
    },
    want: [
      'metadata.annotations[scheduling.gantry.dev/gang]: Unsupported value: "True": supported values: "false", "true"',
    ],
  },
];

for (const c of updateCases) {
  test(`validateJobUpdate: ${c.name}`, () => {
    assert.deepEqual(
      validateJobUpdate(makeJob(c.next), makeJob(c.old)).map(fieldErrorString),
      c.want,
    );
  });
}
