/**
 * `makeDeployment("web")`: a fluent apps/v1 Deployment fixture. Every method edits the builder
 * and returns it; `obj()` returns a fresh deep copy, `clone()` a builder to vary.
 */
import type {
  AppsCondition,
  Deployment,
  DeploymentStatus,
  IntOrString,
  LabelSelector,
  Toleration,
} from "../../api/index.ts";

export class DeploymentBuilder {
  #d: Deployment;

  constructor(deployment: Deployment) {
    this.#d = deployment;
  }

  clone(): DeploymentBuilder {
    return new DeploymentBuilder(structuredClone(this.#d));
  }

  obj(): Deployment {
    return structuredClone(this.#d);
  }

  namespace(namespace: string): this {
    this.#d.metadata.namespace = namespace;
    return this;
  }

  uid(uid: string): this {
    this.#d.metadata.uid = uid;
    return this;
  }

  generation(generation: number): this {
    this.#d.metadata.generation = generation;
    return this;
  }

  annotation(key: string, value: string): this {
    this.#d.metadata.annotations = { ...this.#d.metadata.annotations, [key]: value };
    return this;
  }

  replicas(replicas: number): this {
    this.#d.spec.replicas = replicas;
    return this;
  }

  selector(selector: LabelSelector): this {
    this.#d.spec.selector = structuredClone(selector);
    return this;
  }

  /** Sets the template's (and selector's) labels. */
  labels(labels: Record<string, string>): this {
    this.#d.spec.selector = { matchLabels: { ...labels } };
    this.#d.spec.template.metadata = { ...this.#d.spec.template.metadata, labels: { ...labels } };
    return this;
  }

  /** Sets the first container's image: the usual way to roll out a new template. */
  image(image: string): this {
    const first = this.#d.spec.template.spec?.containers[0];
    if (first !== undefined) first.image = image;
    return this;
  }

  /** Adds a toleration to the pod template. */
  toleration(toleration: Toleration): this {
    const spec = this.#d.spec.template.spec;
    if (spec !== undefined) spec.tolerations = [...(spec.tolerations ?? []), { ...toleration }];
    return this;
  }

  /** An annotation on the pod template (`gantry.dev/run-for`, say). */
  podAnnotation(key: string, value: string): this {
    const template = this.#d.spec.template;
    template.metadata = {
      ...template.metadata,
      annotations: { ...template.metadata?.annotations, [key]: value },
    };
    return this;
  }

  /** A copy without uid, generation and status, ready for `client.create`. */
  forCreate(): Deployment {
    const d = this.obj();
    delete d.metadata.uid;
    delete d.metadata.generation;
    delete d.status;
    return d;
  }

  rollingUpdate(maxSurge: IntOrString, maxUnavailable: IntOrString): this {
    this.#d.spec.strategy = { type: "RollingUpdate", rollingUpdate: { maxSurge, maxUnavailable } };
    return this;
  }

  recreate(): this {
    this.#d.spec.strategy = { type: "Recreate" };
    return this;
  }

  minReadySeconds(seconds: number): this {
    this.#d.spec.minReadySeconds = seconds;
    return this;
  }

  revisionHistoryLimit(limit: number): this {
    this.#d.spec.revisionHistoryLimit = limit;
    return this;
  }

  progressDeadlineSeconds(seconds: number): this {
    this.#d.spec.progressDeadlineSeconds = seconds;
    return this;
  }

  paused(paused = true): this {
    this.#d.spec.paused = paused;
    return this;
  }

  status(status: DeploymentStatus): this {
    this.#d.status = structuredClone(status);
    return this;
  }

  condition(condition: AppsCondition): this {
    const conditions = (this.#d.status?.conditions ?? []).filter((c) => c.type !== condition.type);
    this.#d.status = { ...this.#d.status, conditions: [...conditions, { ...condition }] };
    return this;
  }
}

/**
 * A Deployment `name` in `default` (uid `uid-<name>`, generation 1) of one replica selecting
 * `app=<name>`, with upstream's defaults spelled out: RollingUpdate 25%/25%,
 * revisionHistoryLimit 10, progressDeadlineSeconds 600, one container `c` running `nginx:1`.
 */
export function makeDeployment(name: string): DeploymentBuilder {
  return new DeploymentBuilder({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: "default", uid: `uid-${name}`, generation: 1 },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "c", image: "nginx:1" }] },
      },
      strategy: {
        type: "RollingUpdate",
        rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" },
      },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
  });
}
