/**
 * `makePdb("web-pdb")`: a fluent policy/v1 PodDisruptionBudget fixture (namespace `default`,
 * generation 1, no selector). Every method edits the builder and returns it; `obj()` returns a
 * fresh deep copy, `clone()` a builder to vary.
 */
import type {
  BudgetScope,
  Condition,
  IntOrString,
  LabelSelector,
  PodDisruptionBudget,
  PodDisruptionBudgetStatus,
  UnhealthyPodEvictionPolicy,
} from "../../api/index.ts";
import { ObjectBuilder } from "./object-builder.ts";

export class PdbBuilder extends ObjectBuilder<PodDisruptionBudget> {
  clone(): PdbBuilder {
    return new PdbBuilder(this.obj());
  }

  /** `spec.selector.matchLabels`. */
  matchLabels(labels: Record<string, string>): this {
    this.object.spec.selector = { matchLabels: { ...labels } };
    return this;
  }

  selector(selector: LabelSelector | undefined): this {
    if (selector === undefined) delete this.object.spec.selector;
    else this.object.spec.selector = structuredClone(selector);
    return this;
  }

  minAvailable(value: IntOrString): this {
    this.object.spec.minAvailable = value;
    return this;
  }

  maxUnavailable(value: IntOrString): this {
    this.object.spec.maxUnavailable = value;
    return this;
  }

  unhealthyPodEvictionPolicy(policy: UnhealthyPodEvictionPolicy): this {
    this.object.spec.unhealthyPodEvictionPolicy = policy;
    return this;
  }

  usePodGroups(value = true): this {
    this.object.spec.usePodGroups = value;
    return this;
  }

  budgetScope(scope: BudgetScope): this {
    this.object.spec.budgetScope = scope;
    return this;
  }

  /** Replaces the status; counters default to 0 and observedGeneration to the generation. */
  status(status: Partial<PodDisruptionBudgetStatus>): this {
    this.object.status = {
      observedGeneration: this.object.metadata.generation ?? 1,
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
      ...structuredClone(status),
    };
    return this;
  }

  condition(condition: Condition): this {
    const status = this.object.status ?? {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    };
    status.conditions = [...(status.conditions ?? []), structuredClone(condition)];
    this.object.status = status;
    return this;
  }
}

export function makePdb(name: string): PdbBuilder {
  return new PdbBuilder({
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name, namespace: "default", uid: `uid-${name}`, generation: 1 },
    spec: {},
  });
}
