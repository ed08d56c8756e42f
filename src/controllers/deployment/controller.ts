/**
 * The Deployment controller: owns ReplicaSets named `<deployment>-<pod-template-hash>`, rolls
 * templates out with RollingUpdate or Recreate, keeps revision history, and reports the
 * conditions `kubectl rollout status` reads. Upstream's pkg/controller/deployment.
 */
import {
  ApiError,
  type Deployment,
  type LabelSelector,
  type LabelSelectorExpr,
  matchesLabels,
  type OwnerReference,
  type Pod,
  type ReplicaSet,
  selectorFromLabelSelector,
  semanticEqual,
} from "../../api/index.ts";
import {
  deploymentsResource,
  keyOf,
  podsResource,
  replicaSetsResource,
} from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  type Controller,
  type ControllerDeps,
  claimObjects,
  controllerRefOf,
  controllerUidIndex,
  controllerUidIndexFunc,
  defineController,
  done,
  ensureIndex,
  type InformerEvent,
  type ReconcileResult,
  recheckNotDeleting,
  splitKey,
  terminal,
  watch,
} from "../framework/index.ts";
import { isScalingEvent } from "./plan.ts";
import {
  type DeploymentContext,
  type DeploymentState,
  deploymentIdentity,
  involvedOf,
  replicaSetsWithRevision,
  writeStatus,
} from "./replica-set-writes.ts";
import {
  rollback,
  rollbackRevision,
  rolloutRecreate,
  rolloutRolling,
  syncScale,
  syncStatusOnly,
} from "./rollout.ts";
import { computePausedConditions } from "./status.ts";

export type DeploymentControllerDeps = ControllerDeps;

export interface DeploymentControllerOptions {
  /** Concurrent reconciles (upstream's --concurrent-deployment-syncs). @default 5 */
  readonly workers?: number;
}

type D = DeepReadonly<Deployment>;
type RS = DeepReadonly<ReplicaSet>;

function selectorOf(d: D): LabelSelectorExpr {
  return selectorFromLabelSelector(d.spec.selector as LabelSelector | undefined);
}

function isEmptySelector(d: D): boolean {
  const s = d.spec.selector;
  return (
    s !== undefined &&
    Object.keys(s.matchLabels ?? {}).length === 0 &&
    (s.matchExpressions ?? []).length === 0
  );
}

export function newDeploymentController(
  deps: DeploymentControllerDeps,
  options: DeploymentControllerOptions = {},
): Controller {
  const deployments = deps.informers.forResource<Deployment>(deploymentsResource);
  const replicaSets = deps.informers.forResource<ReplicaSet>(replicaSetsResource);
  const pods = deps.informers.forResource<Pod>(podsResource);
  ensureIndex(replicaSets, controllerUidIndex, controllerUidIndexFunc);
  ensureIndex(pods, controllerUidIndex, controllerUidIndexFunc);
  const context: DeploymentContext = {
    client: deps.client,
    clock: deps.clock,
    logger: deps.logger.with({ controller: "deployment" }),
    events: deps.events,
    deployments,
    replicaSets,
    pods,
  };

  const ownerKey = (namespace: string, ref: DeepReadonly<OwnerReference>): string | undefined => {
    if (ref.kind !== "Deployment") return undefined;
    const d = deployments.lister.get(namespace, ref.name);
    if (d === undefined || d.metadata.uid !== ref.uid) return undefined;
    return keyOf(d);
  };

  /** `getDeploymentsForReplicaSet`: Deployments whose selector matches an orphan's labels. */
  const selecting = (rs: RS): string[] =>
    deployments.lister.list(rs.metadata.namespace ?? "").flatMap((d) => {
      if (isEmptySelector(d)) return [];
      try {
        return matchesLabels(selectorOf(d), rs.metadata.labels ?? {}) ? [keyOf(d)] : [];
      } catch (error: unknown) {
        // An invalid selector selects nothing; its own reconcile reports it.
        if (error instanceof ApiError) return [];
        throw error;
      }
    });

  const mapReplicaSet = (event: InformerEvent<ReplicaSet>): readonly string[] => {
    const rs = event.object;
    const namespace = rs.metadata.namespace ?? "";
    const ref = controllerRefOf(rs);
    if (event.type === "delete" || (event.type === "add" && rs.metadata.deletionTimestamp)) {
      const key = ref === undefined ? undefined : ownerKey(namespace, ref);
      return key === undefined ? [] : [key];
    }
    if (event.type === "add") {
      if (ref === undefined) return selecting(rs);
      const key = ownerKey(namespace, ref);
      return key === undefined ? [] : [key];
    }
    const old = event.oldObject;
    if (old.metadata.resourceVersion === rs.metadata.resourceVersion) return [];
    const keys: string[] = [];
    const oldRef = controllerRefOf(old);
    const refChanged = !semanticEqual(ref ?? null, oldRef ?? null);
    if (refChanged && oldRef !== undefined) {
      const key = ownerKey(namespace, oldRef);
      if (key !== undefined) keys.push(key);
    }
    if (ref !== undefined) {
      const key = ownerKey(namespace, ref);
      if (key !== undefined) keys.push(key);
      return keys;
    }
    const labelsChanged = !semanticEqual(old.metadata.labels ?? {}, rs.metadata.labels ?? {});
    if (labelsChanged || refChanged) keys.push(...selecting(rs));
    return keys;
  };

  /** A Recreate rollout waits for old pods to go: their deletion wakes it up. */
  const mapPod = (event: InformerEvent<Pod>): readonly string[] => {
    if (event.type !== "delete") return [];
    const pod = event.object;
    const namespace = pod.metadata.namespace ?? "";
    const rsRef = controllerRefOf(pod);
    if (rsRef === undefined || rsRef.kind !== "ReplicaSet") return [];
    const rs = replicaSets.lister.get(namespace, rsRef.name);
    if (rs === undefined || rs.metadata.uid !== rsRef.uid) return [];
    const dRef = controllerRefOf(rs);
    const key = dRef === undefined ? undefined : ownerKey(namespace, dRef);
    if (key === undefined) return [];
    const d = deployments.indexer.get(key);
    return d?.spec.strategy?.type === "Recreate" ? [key] : [];
  };

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const { namespace, name } = splitKey(key);
    const cached = deployments.lister.get(namespace, name);
    if (cached === undefined) return done;
    const state: DeploymentState = { d: structuredClone(cached) as Deployment };

    if (isEmptySelector(cached)) {
      deps.events.event(
        involvedOf(state),
        "Warning",
        "SelectingAll",
        "This deployment is selecting all pods. A non-empty selector is required.",
      );
      const generation = cached.metadata.generation ?? 0;
      if ((cached.status?.observedGeneration ?? 0) < generation) {
        state.d.status = { ...state.d.status, observedGeneration: generation };
        await writeStatus(context, state);
      }
      return done;
    }
    let selector: LabelSelectorExpr;
    try {
      selector = selectorOf(cached);
    } catch (error: unknown) {
      throw terminal(error);
    }
    // getReplicaSetsForDeployment: adopt and release through the ControllerRef rules.
    let owned = await claimObjects<ReplicaSet>(deps.client, {
      controller: cached,
      identity: deploymentIdentity,
      resource: replicaSetsResource,
      candidates: replicaSets.lister.list(namespace),
      matches: (rs) => matchesLabels(selector, rs.metadata.labels ?? {}),
      canAdopt: () => recheckNotDeleting(deps.client, deploymentsResource, cached),
    });
    if (cached.metadata.deletionTimestamp !== undefined) {
      return syncStatusOnly(context, state, owned);
    }
    const paused = computePausedConditions(cached, deps.clock.now());
    if (paused !== undefined) {
      state.d.status = { ...state.d.status, conditions: paused };
      await writeStatus(context, state);
    }
    if (state.d.spec.paused === true) return syncScale(context, state, owned);
    if (rollbackRevision(state.d) !== undefined) return rollback(context, state, owned);
    const probe = await replicaSetsWithRevision(context, state, owned, false);
    if (probe.newRs !== undefined) {
      // Later steps start from the new ReplicaSet as just written, not the cached one.
      const uid = probe.newRs.metadata.uid;
      owned = owned.map((rs) => (rs.metadata.uid === uid ? (probe.newRs ?? rs) : rs));
    }
    if (isScalingEvent(state.d, [...probe.old, probe.newRs])) {
      return syncScale(context, state, owned);
    }
    if (state.d.spec.strategy?.type === "Recreate") {
      const podsByOwner = new Map<string, DeepReadonly<Pod>[]>();
      for (const rs of owned) podsByOwner.set(rs.metadata.uid ?? "", []);
      for (const pod of pods.lister.list(namespace, selector)) {
        const uid = controllerRefOf(pod)?.uid;
        if (uid !== undefined) podsByOwner.get(uid)?.push(pod);
      }
      return rolloutRecreate(context, state, owned, podsByOwner);
    }
    return rolloutRolling(context, state, owned);
  };

  return defineController<Deployment>({
    name: "deployment",
    primary: deployments,
    secondary: [watch(replicaSets, mapReplicaSet), watch(pods, mapPod)],
    reconcile,
    workers: options.workers ?? 5,
    clock: deps.clock,
    logger: deps.logger,
  });
}
