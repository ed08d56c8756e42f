/**
 * `makeStatefulSet("web")`: a fluent apps/v1 StatefulSet fixture. Every method edits the builder
 * and returns it; `obj()` returns a fresh deep copy (`forCreate()` one without server-set
 * metadata), `clone()` a builder to vary.
 */
import type { StatefulSet, StatefulSetStatus } from "../../api/index.ts";
import { ObjectBuilder } from "./object-builder.ts";

export class StatefulSetBuilder extends ObjectBuilder<StatefulSet> {
  clone(): StatefulSetBuilder {
    return new StatefulSetBuilder(structuredClone(this.object));
  }

  terminating(time = "2026-01-01T00:00:00Z"): this {
    this.object.metadata.deletionTimestamp = time;
    return this;
  }

  replicas(replicas: number): this {
    this.object.spec.replicas = replicas;
    return this;
  }

  /** `OrderedReady` (the default) or `Parallel`. */
  podManagementPolicy(policy: "OrderedReady" | "Parallel"): this {
    this.object.spec.podManagementPolicy = policy;
    return this;
  }

  /** RollingUpdate with this partition. */
  partition(partition: number): this {
    this.object.spec.updateStrategy = { type: "RollingUpdate", rollingUpdate: { partition } };
    return this;
  }

  onDelete(): this {
    this.object.spec.updateStrategy = { type: "OnDelete" };
    return this;
  }

  serviceName(name: string): this {
    this.object.spec.serviceName = name;
    return this;
  }

  revisionHistoryLimit(limit: number): this {
    this.object.spec.revisionHistoryLimit = limit;
    return this;
  }

  minReadySeconds(seconds: number): this {
    this.object.spec.minReadySeconds = seconds;
    return this;
  }

  startOrdinal(start: number): this {
    this.object.spec.ordinals = { start };
    return this;
  }

  /** Adds a volume claim template named `name`. */
  volumeClaim(name: string): this {
    this.object.spec.volumeClaimTemplates = [
      ...(this.object.spec.volumeClaimTemplates ?? []),
      { metadata: { name }, spec: { accessModes: ["ReadWriteOnce"] } },
    ];
    return this;
  }

  /** Sets the template's (and selector's) labels. */
  labels(labels: Record<string, string>): this {
    this.object.spec.selector = { matchLabels: { ...labels } };
    this.object.spec.template.metadata = {
      ...this.object.spec.template.metadata,
      labels: { ...labels },
    };
    return this;
  }

  image(image: string): this {
    const first = this.object.spec.template.spec?.containers[0];
    if (first !== undefined) first.image = image;
    return this;
  }

  status(status: Partial<StatefulSetStatus>): this {
    this.object.status = { replicas: 0, ...this.object.status, ...structuredClone(status) };
    return this;
  }
}

/**
 * A StatefulSet `name` in `default` (uid `uid-<name>`, generation 1) of one replica selecting
 * `app=<name>`, service `<name>`, one container `c` running `nginx:1`, RollingUpdate with
 * partition 0 and OrderedReady, as the API server defaults them.
 */
export function makeStatefulSet(name: string): StatefulSetBuilder {
  return new StatefulSetBuilder({
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: {
      name,
      namespace: "default",
      uid: `uid-${name}`,
      generation: 1,
      creationTimestamp: "2024-01-01T00:00:00Z",
    },
    spec: {
      replicas: 1,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      podManagementPolicy: "OrderedReady",
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 0 } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "c", image: "nginx:1" }] },
      },
    },
  });
}
