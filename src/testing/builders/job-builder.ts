/**
 * `makeJob("pi")`: a fluent batch/v1 Job fixture. Every method edits the builder and returns it;
 * `obj()` returns a fresh deep copy as the API server stores it (generated selector and labels),
 * `forCreate()` one as a user sends it, `clone()` a builder to vary.
 */
import type {
  Job,
  JobCondition,
  JobStatus,
  OwnerReference,
  RestartPolicy,
  WorkloadReference,
} from "../../api/index.ts";
import { ObjectBuilder } from "./object-builder.ts";

const uidLabels = [
  "batch.kubernetes.io/controller-uid",
  "controller-uid",
  "batch.kubernetes.io/job-name",
  "job-name",
];

export class JobBuilder extends ObjectBuilder<Job> {
  clone(): JobBuilder {
    return new JobBuilder(structuredClone(this.object));
  }

  /** Without uid, generation, creationTimestamp, status, selector and generated labels. */
  override forCreate(): Job {
    const job = super.forCreate();
    delete job.spec.selector;
    const labels = job.spec.template.metadata?.labels ?? {};
    for (const key of uidLabels) delete labels[key];
    return job;
  }

  completions(completions: number | undefined): this {
    if (completions === undefined) delete this.object.spec.completions;
    else this.object.spec.completions = completions;
    return this;
  }

  parallelism(parallelism: number): this {
    this.object.spec.parallelism = parallelism;
    return this;
  }

  backoffLimit(limit: number): this {
    this.object.spec.backoffLimit = limit;
    return this;
  }

  indexed(): this {
    this.object.spec.completionMode = "Indexed";
    return this;
  }

  suspend(suspend = true): this {
    this.object.spec.suspend = suspend;
    return this;
  }

  activeDeadlineSeconds(seconds: number): this {
    this.object.spec.activeDeadlineSeconds = seconds;
    return this;
  }

  ttlSecondsAfterFinished(seconds: number): this {
    this.object.spec.ttlSecondsAfterFinished = seconds;
    return this;
  }

  podReplacementPolicy(policy: "TerminatingOrFailed" | "Failed"): this {
    this.object.spec.podReplacementPolicy = policy;
    return this;
  }

  restartPolicy(policy: RestartPolicy): this {
    const spec = this.object.spec.template.spec;
    if (spec !== undefined) spec.restartPolicy = policy;
    return this;
  }

  /** An annotation on the Job itself (`scheduling.gantry.dev/gang`, say). */
  /** `spec.scheduling.schedulingPolicy.gang`, with `minCount` when given. */
  gang(minCount?: number): this {
    this.object.spec.scheduling = {
      schedulingPolicy: { gang: minCount === undefined ? {} : { minCount } },
    };
    return this;
  }

  /** `spec.scheduling.schedulingPolicy.basic`. */
  basicScheduling(): this {
    this.object.spec.scheduling = { schedulingPolicy: { basic: {} } };
    return this;
  }

  /** `spec.template.spec.workloadRef`: a group the user manages. */
  workloadRef(ref: WorkloadReference): this {
    const spec = this.object.spec.template.spec;
    if (spec !== undefined) spec.workloadRef = { ...ref };
    return this;
  }

  ownerReference(ref: OwnerReference): this {
    this.object.metadata.ownerReferences = [...(this.object.metadata.ownerReferences ?? []), ref];
    return this;
  }

  /** An annotation on the pod template (`gantry.dev/run-for`, say). */
  podAnnotation(key: string, value: string): this {
    const template = this.object.spec.template;
    template.metadata = {
      ...template.metadata,
      annotations: { ...template.metadata?.annotations, [key]: value },
    };
    return this;
  }

  image(image: string): this {
    const first = this.object.spec.template.spec?.containers[0];
    if (first !== undefined) first.image = image;
    return this;
  }

  status(status: JobStatus): this {
    this.object.status = { ...this.object.status, ...structuredClone(status) };
    return this;
  }

  condition(condition: JobCondition): this {
    const conditions = (this.object.status?.conditions ?? []).filter(
      (c) => c.type !== condition.type,
    );
    this.object.status = { ...this.object.status, conditions: [...conditions, { ...condition }] };
    return this;
  }
}

/**
 * A Job `name` in `default` (uid `uid-<name>`, generation 1): one completion, parallelism 1,
 * backoffLimit 6, NonIndexed, restartPolicy Never, one container `c` running `busybox:1`, with the
 * selector and labels the API server generates.
 */
export function makeJob(name: string): JobBuilder {
  const uid = `uid-${name}`;
  return new JobBuilder({
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: {
      name,
      namespace: "default",
      uid,
      generation: 1,
      creationTimestamp: "2024-01-01T00:00:00Z",
    },
    spec: {
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: "NonIndexed",
      suspend: false,
      podReplacementPolicy: "TerminatingOrFailed",
      manualSelector: false,
      selector: { matchLabels: { "batch.kubernetes.io/controller-uid": uid } },
      template: {
        metadata: {
          labels: {
            "batch.kubernetes.io/controller-uid": uid,
            "controller-uid": uid,
            "batch.kubernetes.io/job-name": name,
            "job-name": name,
          },
        },
        spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox:1" }] },
      },
    },
  });
}
