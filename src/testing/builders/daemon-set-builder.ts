/**
 * `makeDaemonSet("agent")`: a fluent apps/v1 DaemonSet fixture. Every method edits the builder
 * and returns it; `obj()` returns a fresh deep copy (`forCreate()` one without server-set
 * metadata), `clone()` a builder to vary.
 */
import type {
  DaemonSet,
  DaemonSetStatus,
  IntOrString,
  NodeSelectorTerm,
  Toleration,
} from "../../api/index.ts";

export class DaemonSetBuilder {
  #ds: DaemonSet;

  constructor(ds: DaemonSet) {
    this.#ds = ds;
  }

  clone(): DaemonSetBuilder {
    return new DaemonSetBuilder(structuredClone(this.#ds));
  }

  obj(): DaemonSet {
    return structuredClone(this.#ds);
  }

  /** A copy without uid, generation, creationTimestamp and status, ready for `client.create`. */
  forCreate(): DaemonSet {
    const ds = this.obj();
    delete ds.metadata.uid;
    delete ds.metadata.generation;
    delete ds.metadata.creationTimestamp;
    delete ds.status;
    return ds;
  }

  namespace(namespace: string): this {
    this.#ds.metadata.namespace = namespace;
    return this;
  }

  uid(uid: string): this {
    this.#ds.metadata.uid = uid;
    return this;
  }

  generation(generation: number): this {
    this.#ds.metadata.generation = generation;
    return this;
  }

  annotation(key: string, value: string): this {
    this.#ds.metadata.annotations = { ...this.#ds.metadata.annotations, [key]: value };
    return this;
  }

  /** Sets the template's (and selector's) labels. */
  labels(labels: Record<string, string>): this {
    this.#ds.spec.selector = { matchLabels: { ...labels } };
    this.#ds.spec.template.metadata = { ...this.#ds.spec.template.metadata, labels: { ...labels } };
    return this;
  }

  #podSpec() {
    const spec = this.#ds.spec.template.spec ?? { containers: [] };
    this.#ds.spec.template.spec = spec;
    return spec;
  }

  image(image: string): this {
    const first = this.#podSpec().containers[0];
    if (first !== undefined) first.image = image;
    return this;
  }

  nodeSelector(selector: Record<string, string>): this {
    this.#podSpec().nodeSelector = { ...selector };
    return this;
  }

  requiredNodeAffinityTerm(term: NodeSelectorTerm): this {
    this.#podSpec().affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [structuredClone(term)],
        },
      },
    };
    return this;
  }

  toleration(toleration: Toleration): this {
    const spec = this.#podSpec();
    spec.tolerations = [...(spec.tolerations ?? []), { ...toleration }];
    return this;
  }

  hostNetwork(): this {
    this.#podSpec().hostNetwork = true;
    return this;
  }

  minReadySeconds(seconds: number): this {
    this.#ds.spec.minReadySeconds = seconds;
    return this;
  }

  /** RollingUpdate with these limits. */
  rollingUpdate(maxUnavailable: IntOrString, maxSurge: IntOrString = 0): this {
    this.#ds.spec.updateStrategy = {
      type: "RollingUpdate",
      rollingUpdate: { maxUnavailable, maxSurge },
    };
    return this;
  }

  onDelete(): this {
    this.#ds.spec.updateStrategy = { type: "OnDelete" };
    return this;
  }

  status(status: Partial<DaemonSetStatus>): this {
    this.#ds.status = {
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
      ...this.#ds.status,
      ...structuredClone(status),
    };
    return this;
  }
}

/**
 * A DaemonSet `name` in `default` (uid `uid-<name>`, generation 1) selecting `app=<name>`, one
 * container `c` running `agent:1`, RollingUpdate with maxUnavailable 1 and maxSurge 0 as the API
 * server defaults them.
 */
export function makeDaemonSet(name: string): DaemonSetBuilder {
  return new DaemonSetBuilder({
    apiVersion: "apps/v1",
    kind: "DaemonSet",
    metadata: {
      name,
      namespace: "default",
      uid: `uid-${name}`,
      generation: 1,
      creationTimestamp: "2024-01-01T00:00:00Z",
    },
    spec: {
      selector: { matchLabels: { app: name } },
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "c", image: "agent:1" }] },
      },
    },
  });
}
