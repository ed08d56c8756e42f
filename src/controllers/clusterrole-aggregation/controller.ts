/**
 * The clusterrole-aggregation controller: a ClusterRole with an `aggregationRule` gets, as its
 * rules, the union of the rules of every other ClusterRole its selectors match (upstream's
 * pkg/controller/clusterroleaggregation). Any ClusterRole change re-checks every aggregated role.
 */
import {
  type ClusterRole,
  type LabelSelectorExpr,
  matches,
  type PolicyRule,
  selectorFromLabelSelector,
} from "../../api/index.ts";
import {
  type Client,
  type InformerFactory,
  isNotFound,
  keyOf,
  type ResourceRef,
} from "../../client/index.ts";
import type { Clock, DeepReadonly, Logger } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  done,
  type ReconcileResult,
} from "../framework/index.ts";

export const clusterRolesResource: ResourceRef = Object.freeze({
  group: "rbac.authorization.k8s.io",
  version: "v1",
  resource: "clusterroles",
  kind: "ClusterRole",
  namespaced: false,
});

export interface ClusterRoleAggregationDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface ClusterRoleAggregationOptions {
  /** Concurrent reconciles (upstream runs 5 workers). @default 5 */
  readonly workers?: number;
}

/**
 * Pure: the rules `role` aggregates from `roles` (sorted by name, itself excluded), each rule
 * once, in the order met; `undefined` when `role` has no aggregation rule.
 */
export function aggregatedRules(
  role: DeepReadonly<ClusterRole>,
  roles: readonly DeepReadonly<ClusterRole>[],
): PolicyRule[] | undefined {
  const selectors = role.aggregationRule?.clusterRoleSelectors;
  if (selectors === undefined) return undefined;
  const exprs: LabelSelectorExpr[] = [];
  for (const selector of selectors) {
    // A selector that does not parse selects nothing; validation rejects it at write time.
    try {
      exprs.push(selectorFromLabelSelector(selector as never));
    } catch (error: unknown) {
      if (error instanceof Error) continue;
      throw error;
    }
  }
  const sources = roles
    .filter((r) => r.metadata.name !== role.metadata.name)
    .filter((r) => exprs.some((e) => matches(e, r.metadata.labels ?? {})))
    .sort((a, b) => ((a.metadata.name ?? "") < (b.metadata.name ?? "") ? -1 : 1));
  const rules: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    for (const rule of source.rules ?? []) {
      const text = JSON.stringify(rule);
      if (seen.has(text)) continue;
      seen.add(text);
      rules.push(structuredClone(rule) as PolicyRule);
    }
  }
  return rules;
}

export function newClusterRoleAggregationController(
  deps: ClusterRoleAggregationDeps,
  options: ClusterRoleAggregationOptions = {},
): Controller {
  const roles = deps.informers.forResource<ClusterRole>(clusterRolesResource);

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const role = roles.lister.get(undefined, key);
    if (role === undefined) return done;
    const rules = aggregatedRules(role, roles.lister.list());
    if (rules === undefined) return done;
    if (JSON.stringify(rules) === JSON.stringify(role.rules ?? [])) return done;
    const next = structuredClone(role) as ClusterRole;
    next.rules = rules;
    try {
      await deps.client.update<ClusterRole>(clusterRolesResource, next, {
        fieldManager: "clusterrole-aggregation-controller",
      });
    } catch (error: unknown) {
      if (!isNotFound(error)) throw error;
    }
    return done;
  };

  return defineController<ClusterRole>({
    name: "clusterrole-aggregation",
    primary: roles,
    // Any change may alter what an aggregated role selects: look at every aggregated role.
    primaryToKeys: () =>
      roles.lister
        .list()
        .filter((r) => r.aggregationRule !== undefined)
        .map((r) => keyOf(r)),
    reconcile,
    workers: options.workers ?? 5,
    clock: deps.clock,
    logger: deps.logger,
  });
}
