/**
 * `makeLeaderWorkerSet("lws")`: a fluent leaderworkerset.x-k8s.io/v1 LeaderWorkerSet fixture.
 * Every method edits the builder and returns it; `obj()` returns a fresh deep copy (`forCreate()`
 * one without server-set metadata), `clone()` a builder to vary.
 */
import type {
  LeaderWorkerSet,
  LeaderWorkerSetStatus,
  PodTemplateSpec,
  RestartPolicyType,
  StartupPolicyType,
  SubdomainPolicy,
} from "../../api/index.ts";
import { ObjectBuilder } from "./object-builder.ts";

export class LeaderWorkerSetBuilder extends ObjectBuilder<LeaderWorkerSet> {
  clone(): LeaderWorkerSetBuilder {
    return new LeaderWorkerSetBuilder(structuredClone(this.object));
  }

  replicas(replicas: number): this {
    this.object.spec.replicas = replicas;
    return this;
  }

  /** Pods per group, the leader included. */
  size(size: number): this {
    this.object.spec.leaderWorkerTemplate.size = size;
    return this;
  }

  startupPolicy(policy: StartupPolicyType): this {
    this.object.spec.startupPolicy = policy;
    return this;
  }

  restartPolicy(policy: RestartPolicyType): this {
    this.object.spec.leaderWorkerTemplate.restartPolicy = policy;
    return this;
  }

  subdomainPolicy(policy: SubdomainPolicy): this {
    this.object.spec.networkConfig = { subdomainPolicy: policy };
    return this;
  }

  /** RollingUpdate with these settings (the others keep their defaults). */
  rollingUpdate(config: { partition?: number; maxUnavailable?: number | string }): this {
    const rolling = this.object.spec.rolloutStrategy?.rollingUpdateConfiguration;
    this.object.spec.rolloutStrategy = {
      type: "RollingUpdate",
      rollingUpdateConfiguration: {
        partition: 0,
        maxUnavailable: 1,
        maxSurge: 0,
        ...rolling,
        ...config,
      },
    };
    return this;
  }

  /** A leader template of its own (by default the leader uses the worker template). */
  leaderTemplate(template: PodTemplateSpec): this {
    this.object.spec.leaderWorkerTemplate.leaderTemplate = structuredClone(template);
    return this;
  }

  /** The worker template's first container image. */
  image(image: string): this {
    const first = this.object.spec.leaderWorkerTemplate.workerTemplate.spec?.containers[0];
    if (first !== undefined) first.image = image;
    return this;
  }

  /** Adds labels to the worker template. */
  labels(labels: Record<string, string>): this {
    const template = this.object.spec.leaderWorkerTemplate.workerTemplate;
    template.metadata = {
      ...template.metadata,
      labels: { ...template.metadata?.labels, ...labels },
    };
    return this;
  }

  status(status: LeaderWorkerSetStatus): this {
    this.object.status = structuredClone(status);
    return this;
  }
}

/**
 * A LeaderWorkerSet `name` in `default` (uid `uid-<name>`, generation 1) of one group of one
 * pod from a worker template with one container `c` running `nginx:1`, every other field as the
 * CRD's schema defaults it.
 */
export function makeLeaderWorkerSet(name: string): LeaderWorkerSetBuilder {
  return new LeaderWorkerSetBuilder({
    apiVersion: "leaderworkerset.x-k8s.io/v1",
    kind: "LeaderWorkerSet",
    metadata: {
      name,
      namespace: "default",
      uid: `uid-${name}`,
      generation: 1,
      creationTimestamp: "2024-01-01T00:00:00Z",
    },
    spec: {
      replicas: 1,
      leaderWorkerTemplate: {
        size: 1,
        restartPolicy: "RecreateGroupOnPodRestart",
        workerTemplate: { spec: { containers: [{ name: "c", image: "nginx:1" }] } },
      },
      rolloutStrategy: {
        type: "RollingUpdate",
        rollingUpdateConfiguration: { partition: 0, maxUnavailable: 1, maxSurge: 0 },
      },
      startupPolicy: "LeaderCreated",
      networkConfig: { subdomainPolicy: "Shared" },
    },
  });
}
