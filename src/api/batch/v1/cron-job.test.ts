import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import type { CronJob } from "./cron-job.ts";
import { defaultCronJob } from "./cron-job-defaults.ts";
import { validateCronJob, validateCronJobUpdate } from "./cron-job-validation.ts";

function makeCronJob(edit: (c: CronJob) => void = () => {}): CronJob {
  const cronJob: CronJob = {
    metadata: { name: "hello", namespace: "default", uid: "u-1", resourceVersion: "1" },
    spec: {
      schedule: "*/5 * * * *",
      jobTemplate: {
        spec: {
          template: {
            spec: { restartPolicy: "OnFailure", containers: [{ name: "c", image: "busybox" }] },
          },
        },
      },
    },
  };
  edit(cronJob);
  defaultCronJob(cronJob);
  return cronJob;
}

const errors = (cronJob: CronJob): string[] => validateCronJob(cronJob).map(fieldErrorString);

test("defaultCronJob: upstream's SetDefaults_CronJob, and pod defaults inside the template only", () => {
  const cronJob = makeCronJob();
  assert.equal(cronJob.spec.concurrencyPolicy, "Allow");
  assert.equal(cronJob.spec.suspend, false);
  assert.equal(cronJob.spec.successfulJobsHistoryLimit, 3);
  assert.equal(cronJob.spec.failedJobsHistoryLimit, 1);
  const jobSpec = cronJob.spec.jobTemplate.spec;
  assert.equal(jobSpec?.template?.spec?.dnsPolicy, "ClusterFirst", "the pod template is defaulted");
  assert.equal(jobSpec?.parallelism, undefined, "Job-level fields wait for each Job's create");
  assert.equal(jobSpec?.backoffLimit, undefined);
  assert.deepEqual(errors(cronJob), [], "a plain CronJob is valid");
});

const invalidCases: { name: string; edit: (c: CronJob) => void; want: RegExp }[] = [
  {
    name: "a name the controller's Job names would not fit",
    edit: (c) => {
      c.metadata.name = "a".repeat(53);
    },
    want: /^metadata\.name: Invalid value: "a{53}": must be no more than 52 characters$/,
  },
  {
    name: "an empty schedule",
    edit: (c) => {
      c.spec.schedule = "";
    },
    want: /^spec\.schedule: Required value$/,
  },
  {
    name: "a schedule with four fields",
    edit: (c) => {
      c.spec.schedule = "* * * *";
    },
    want: /^spec\.schedule: Invalid value: "\* \* \* \*": expected exactly 5 fields, found 4: \[\* \* \* \*\]$/,
  },
  {
    name: "TZ in the schedule",
    edit: (c) => {
      c.spec.schedule = "TZ=UTC 0 * * * *";
    },
    want: /^spec\.schedule: Invalid value: "TZ=UTC 0 \* \* \* \*": cannot use TZ or CRON_TZ in schedule, use timeZone field instead$/,
  },
  {
    name: "an unknown time zone",
    edit: (c) => {
      c.spec.timeZone = "Mars/Olympus_Mons";
    },
    want: /^spec\.timeZone: Invalid value: "Mars\/Olympus_Mons": unknown time zone Mars\/Olympus_Mons$/,
  },
  {
    name: "an unsupported concurrency policy",
    edit: (c) => {
      c.spec.concurrencyPolicy = "Sometimes" as never;
    },
    want: /^spec\.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"$/,
  },
  {
    name: "a negative history limit",
    edit: (c) => {
      c.spec.failedJobsHistoryLimit = -1;
    },
    want: /^spec\.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0$/,
  },
  {
    name: "a selector in the job template",
    edit: (c) => {
      c.spec.jobTemplate.spec = {
        ...c.spec.jobTemplate.spec,
        selector: { matchLabels: { a: "b" } },
      };
    },
    want: /^spec\.jobTemplate\.spec\.selector: Invalid value: .*`selector` will be auto-generated$/,
  },
  {
    name: "a job template whose pods restart Always",
    edit: (c) => {
      const pod = c.spec.jobTemplate.spec?.template?.spec;
      if (pod !== undefined) pod.restartPolicy = "Always";
    },
    want: /^spec\.jobTemplate\.spec\.template\.spec\.restartPolicy: Required value: valid values: "OnFailure", "Never"$/,
  },
];

for (const c of invalidCases) {
  test(`validateCronJob: refuses ${c.name}, with upstream's message`, () => {
    const found = errors(makeCronJob(c.edit));
    assert.ok(
      found.some((e) => c.want.test(e)),
      `expected an error matching ${c.want}, got ${JSON.stringify(found)}`,
    );
  });
}

test("validateCronJob: a valid IANA time zone is accepted", () => {
  assert.deepEqual(
    errors(
      makeCronJob((c) => {
        c.spec.timeZone = "America/New_York";
      }),
    ),
    [],
  );
});

test("validateCronJobUpdate: names over 52 characters stay editable; a time zone is checked only when it changes", () => {
  const old = makeCronJob((c) => {
    c.metadata.name = "a".repeat(60);
  });
  const edited = structuredClone(old);
  edited.spec.suspend = true;
  assert.deepEqual(validateCronJobUpdate(edited, old).map(fieldErrorString), []);
  const rezoned = structuredClone(old);
  rezoned.spec.timeZone = "Nowhere/Land";
  assert.match(
    validateCronJobUpdate(rezoned, old).map(fieldErrorString).join("\n"),
    /spec\.timeZone: Invalid value: "Nowhere\/Land": unknown time zone Nowhere\/Land/,
  );
});
