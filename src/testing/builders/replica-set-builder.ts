/**
 * `makeReplicaSet("web-1")`: a fluent apps/v1 ReplicaSet fixture. Every method edits the
 * builder and returns it; `obj()` returns a fresh deep copy, `clone()` a builder to vary.
 */
import type {
  AppsCondition,
  LabelSelector,
  OwnerReference,
  ReplicaSet,
  ReplicaSetStatus,
} from "../../api/index.ts";

export class ReplicaSetBuilder {
  #rs: ReplicaSet;

  constructor(rs: ReplicaSet) {
    this.#rs = rs;
  }

  clone(): ReplicaSetBuilder {
    return new ReplicaSetBuilder(structuredClone(this.#rs));
  }

  obj(): ReplicaSet {
    return structuredClone(this.#rs);
  }

  namespace(namespace: string): this {
    this.#rs.metadata.namespace = namespace;
    return this;
  }

  uid(uid: string): this {
    this.#rs.metadata.uid = uid;
    return this;
  }

  generation(generation: number): this {
    this.#rs.metadata.generation = generation;
    return this;
  }

  creationTimestamp(time: string): this {
    this.#rs.metadata.creationTimestamp = time;
    return this;
  }

  annotation(key: string, value: string): this {
    this.#rs.metadata.annotations = { ...this.#rs.metadata.annotations, [key]: value };
    return this;
  }

  /** Sets `deployment.kubernetes.io/revision`. */
  revision(revision: number): this {
    return this.annotation("deployment.kubernetes.io/revision", String(revision));
  }

  ownerReference(owner: OwnerReference): this {
    this.#rs.metadata.ownerReferences = [...(this.#rs.metadata.ownerReferences ?? []), owner];
    return this;
  }

  terminating(time = "2026-01-01T00:00:00Z"): this {
    this.#rs.metadata.deletionTimestamp = time;
    return this;
  }

  replicas(replicas: number): this {
    this.#rs.spec.replicas = replicas;
    return this;
  }

  minReadySeconds(seconds: number): this {
    this.#rs.spec.minReadySeconds = seconds;
    return this;
  }

  selector(selector: LabelSelector): this {
    this.#rs.spec.selector = structuredClone(selector);
    return this;
  }

  /** Sets the template's (and selector's) labels. */
  labels(labels: Record<string, string>): this {
    this.#rs.spec.selector = { matchLabels: { ...labels } };
    this.#rs.spec.template = {
      ...this.#rs.spec.template,
      metadata: { ...this.#rs.spec.template?.metadata, labels: { ...labels } },
    };
    return this;
  }

  image(image: string): this {
    const first = this.#rs.spec.template?.spec?.containers[0];
    if (first !== undefined) first.image = image;
    return this;
  }

  status(status: Partial<ReplicaSetStatus>): this {
    this.#rs.status = { replicas: 0, ...this.#rs.status, ...structuredClone(status) };
    return this;
  }

  /** Sets status replicas, readyReplicas and availableReplicas alike. */
  running(count: number): this {
    return this.status({ replicas: count, readyReplicas: count, availableReplicas: count });
  }

  condition(condition: AppsCondition): this {
    const conditions = (this.#rs.status?.conditions ?? []).filter((c) => c.type !== condition.type);
    this.#rs.status = {
      replicas: 0,
      ...this.#rs.status,
      conditions: [...conditions, { ...condition }],
    };
    return this;
  }
}

/**
 * A ReplicaSet `name` in `default` (uid `uid-<name>`, generation 1) of one replica selecting
 * `app=web`, with one container `c` running `nginx:1` and creationTimestamp
 * 2024-01-01T00:00:00Z.
 */
export function makeReplicaSet(name: string): ReplicaSetBuilder {
  return new ReplicaSetBuilder({
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: {
      name,
      namespace: "default",
      uid: `uid-${name}`,
      generation: 1,
      creationTimestamp: "2024-01-01T00:00:00Z",
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: "web" } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: { containers: [{ name: "c", image: "nginx:1" }] },
      },
    },
  });
}
