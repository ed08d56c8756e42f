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
import { ObjectBuilder } from "./object-builder.ts";

export class DaemonSetBuilder extends ObjectBuilder<DaemonSet> {
  clone(): DaemonSetBuilder {
    return new DaemonSetBuilder(structuredClone(this.object));
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

  #podSpec() {
    const spec = this.object.spec.template.spec ?? { containers: [] };
    this.object.spec.template.spec = spec;
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

  revisionHistoryLimit(limit: number): this {
    this.object.spec.revisionHistoryLimit = limit;
    return this;
  }

  minReadySeconds(seconds: number): this {
    this.object.spec.minReadySeconds = seconds;
    return this;
  }

  /** RollingUpdate with these limits. */
  rollingUpdate(maxUnavailable: IntOrString, maxSurge: IntOrString = 0): this {
    this.object.spec.updateStrategy = {
      type: "RollingUpdate",
      rollingUpdate: { maxUnavailable, maxSurge },
    };
    return this;
  }

  onDelete(): this {
    this.object.spec.updateStrategy = { type: "OnDelete" };
    return this;
  }

  status(status: Partial<DaemonSetStatus>): this {
    this.object.status = {
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
      ...this.object.status,
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
