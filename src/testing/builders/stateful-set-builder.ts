/**
 * `makeStatefulSet("web")`: a fluent apps/v1 StatefulSet fixture. Every method edits the builder
 * and returns it; `obj()` returns a fresh deep copy (`forCreate()` one without server-set
 * metadata), `clone()` a builder to vary.
 */
import type { StatefulSet, StatefulSetStatus } from "../../api/index.ts";

export class StatefulSetBuilder {
  #set: StatefulSet;

  constructor(set: StatefulSet) {
    this.#set = set;
  }

  clone(): StatefulSetBuilder {
    return new StatefulSetBuilder(structuredClone(this.#set));
  }

  obj(): StatefulSet {
    return structuredClone(this.#set);
  }

  /** A copy without uid, generation and creationTimestamp, ready for `client.create`. */
  forCreate(): StatefulSet {
    const set = this.obj();
    delete set.metadata.uid;
    delete set.metadata.generation;
    delete set.metadata.creationTimestamp;
    delete set.status;
    return set;
  }

  namespace(namespace: string): this {
    this.#set.metadata.namespace = namespace;
    return this;
  }

  uid(uid: string): this {
    this.#set.metadata.uid = uid;
    return this;
  }

  generation(generation: number): this {
    this.#set.metadata.generation = generation;
    return this;
  }

  terminating(time = "2026-01-01T00:00:00Z"): this {
    this.#set.metadata.deletionTimestamp = time;
    return this;
  }

  replicas(replicas: number): this {
    this.#set.spec.replicas = replicas;
    return this;
  }

  /** `OrderedReady` (the default) or `Parallel`. */
  podManagementPolicy(policy: "OrderedReady" | "Parallel"): this {
    this.#set.spec.podManagementPolicy = policy;
    return this;
  }

  /** RollingUpdate with this partition. */
  partition(partition: number): this {
    this.#set.spec.updateStrategy = { type: "RollingUpdate", rollingUpdate: { partition } };
    return this;
  }

  onDelete(): this {
    this.#set.spec.updateStrategy = { type: "OnDelete" };
    return this;
  }

  serviceName(name: string): this {
    this.#set.spec.serviceName = name;
    return this;
  }

  minReadySeconds(seconds: number): this {
    this.#set.spec.minReadySeconds = seconds;
    return this;
  }

  startOrdinal(start: number): this {
    this.#set.spec.ordinals = { start };
    return this;
  }

  /** Adds a volume claim template named `name`. */
  volumeClaim(name: string): this {
    this.#set.spec.volumeClaimTemplates = [
      ...(this.#set.spec.volumeClaimTemplates ?? []),
      { metadata: { name }, spec: { accessModes: ["ReadWriteOnce"] } },
    ];
    return this;
  }

  /** Sets the template's (and selector's) labels. */
  labels(labels: Record<string, string>): this {
    this.#set.spec.selector = { matchLabels: { ...labels } };
    this.#set.spec.template.metadata = {
      ...this.#set.spec.template.metadata,
      labels: { ...labels },
    };
    return this;
  }

  image(image: string): this {
    const first = this.#set.spec.template.spec?.containers[0];
    if (first !== undefined) first.image = image;
    return this;
  }

  status(status: Partial<StatefulSetStatus>): this {
    this.#set.status = { replicas: 0, ...this.#set.status, ...structuredClone(status) };
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
