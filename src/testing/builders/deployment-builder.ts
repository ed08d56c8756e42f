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
import { ObjectBuilder } from "./object-builder.ts";

export class DeploymentBuilder extends ObjectBuilder<Deployment> {
  clone(): DeploymentBuilder {
    return new DeploymentBuilder(structuredClone(this.object));
  }

  replicas(replicas: number): this {
    this.object.spec.replicas = replicas;
    return this;
  }

  selector(selector: LabelSelector): this {
    this.object.spec.selector = structuredClone(selector);
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

  /** Sets the first container's image: the usual way to roll out a new template. */
  image(image: string): this {
    const first = this.object.spec.template.spec?.containers[0];
    if (first !== undefined) first.image = image;
    return this;
  }

  /** Adds a toleration to the pod template. */
  toleration(toleration: Toleration): this {
    const spec = this.object.spec.template.spec;
    if (spec !== undefined) spec.tolerations = [...(spec.tolerations ?? []), { ...toleration }];
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

  rollingUpdate(maxSurge: IntOrString, maxUnavailable: IntOrString): this {
    this.object.spec.strategy = {
      type: "RollingUpdate",
      rollingUpdate: { maxSurge, maxUnavailable },
    };
    return this;
  }

  recreate(): this {
    this.object.spec.strategy = { type: "Recreate" };
    return this;
  }

  minReadySeconds(seconds: number): this {
    this.object.spec.minReadySeconds = seconds;
    return this;
  }

  revisionHistoryLimit(limit: number): this {
    this.object.spec.revisionHistoryLimit = limit;
    return this;
  }

  progressDeadlineSeconds(seconds: number): this {
    this.object.spec.progressDeadlineSeconds = seconds;
    return this;
  }

  paused(paused = true): this {
    this.object.spec.paused = paused;
    return this;
  }

  status(status: DeploymentStatus): this {
    this.object.status = structuredClone(status);
    return this;
  }

  condition(condition: AppsCondition): this {
    const conditions = (this.object.status?.conditions ?? []).filter(
      (c) => c.type !== condition.type,
    );
    this.object.status = { ...this.object.status, conditions: [...conditions, { ...condition }] };
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
