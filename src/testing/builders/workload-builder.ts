/**
 * `makeWorkload("w")` and `makePodGroup("pg")`: fluent scheduling.k8s.io/v1alpha1 fixtures for
 * gang scheduling. Every method edits the builder and returns it; `obj()` returns a fresh deep
 * copy (`forCreate()` one without server-set metadata), `clone()` a builder to vary.
 */
import type { PodGroup, PodGroupPolicy, Workload } from "../../api/index.ts";
import { ObjectBuilder } from "./object-builder.ts";

function policyOf(minCount: number | "basic"): PodGroupPolicy {
  return minCount === "basic" ? { basic: {} } : { gang: { minCount } };
}

export class WorkloadBuilder extends ObjectBuilder<Workload> {
  clone(): WorkloadBuilder {
    return new WorkloadBuilder(structuredClone(this.object));
  }

  /** A 1.35 embedded group: gang with `minCount`, or `"basic"`. */
  group(name: string, minCount: number | "basic", replicas?: number): this {
    this.object.spec.podGroups = [
      ...(this.object.spec.podGroups ?? []),
      { name, policy: policyOf(minCount), ...(replicas === undefined ? {} : { replicas }) },
    ];
    return this;
  }

  /** A template standalone PodGroups name. */
  template(name: string, minCount: number | "basic"): this {
    this.object.spec.podGroupTemplates = [
      ...(this.object.spec.podGroupTemplates ?? []),
      { name, policy: policyOf(minCount) },
    ];
    return this;
  }
}

export class PodGroupBuilder extends ObjectBuilder<PodGroup> {
  clone(): PodGroupBuilder {
    return new PodGroupBuilder(structuredClone(this.object));
  }

  /** The Workload and template this group instantiates. */
  workload(workload: string, template: string): this {
    this.object.spec = { workloadRef: { name: workload }, podGroupTemplateName: template };
    return this;
  }
}

/** A Workload in namespace "default" without groups (add `group` or `template`). */
export function makeWorkload(name: string): WorkloadBuilder {
  return new WorkloadBuilder({
    apiVersion: "scheduling.k8s.io/v1alpha1",
    kind: "Workload",
    metadata: { name, namespace: "default", uid: `uid-${name}` },
    spec: {},
  });
}

/** A PodGroup in namespace "default" of Workload `workload`'s template `template`. */
export function makePodGroup(name: string, workload = name, template = "worker"): PodGroupBuilder {
  return new PodGroupBuilder({
    apiVersion: "scheduling.k8s.io/v1alpha1",
    kind: "PodGroup",
    metadata: { name, namespace: "default", uid: `uid-${name}` },
    spec: { workloadRef: { name: workload }, podGroupTemplateName: template },
  });
}
