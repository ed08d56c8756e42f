/**
 * The resource quota controller (upstream's pkg/controller/resourcequota): keeps every
 * ResourceQuota's `status.hard` equal to `spec.hard` and recounts `status.used` from the objects
 * of its namespace when the quota is created or its hard limits change, when something stops
 * using quota (a pod deleted or finished, a service deleted or no longer a NodePort or
 * LoadBalancer, any counted object deleted), and every `syncPeriodMs` (upstream's
 * `--resource-quota-sync-period`, 5 minutes). Admission charges creations as they happen; this
 * controller gives back what is released and corrects any drift.
 *
 * Objects are read through informers opened the first time a quota needs their resource.
 */
import {
  builtInKinds,
  isPodCharged,
  type KubeObject,
  type Pod,
  parseObjectCountName,
  type QuotaEvaluator,
  quotaEvaluatorFor,
  quotaServiceType,
  type ResourceQuota,
  type Service,
  usageEquals,
  usageOf,
} from "../../api/index.ts";
import {
  type Client,
  DeletedFinalStateUnknown,
  type InformerFactory,
  isNotFound,
  keyOf,
  type ResourceRef,
  resourceQuotasResource,
  type SharedInformer,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, deepCopy, type Logger } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  done,
  newResourceDiscovery,
  type ReconcileResult,
  requeueAfter,
} from "../framework/index.ts";
import { computeQuotaStatus, type ObjectSource } from "./sync.ts";

export interface ResourceQuotaControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface ResourceQuotaControllerOptions {
  /** Concurrent reconciles (`--concurrent-resource-quota-syncs`). @default 5 */
  readonly workers?: number;
  /** Full recount of every quota (`--resource-quota-sync-period`). @default 300000 (5m) */
  readonly syncPeriodMs?: number;
}

/** While a resource's cache is still filling, the quota is looked at again after this long. */
const pendingRetryMs = 100;

/** Built-in namespaced resources that can be listed and watched, by `<resource>.<group>`. */
function builtInRefs(): Map<string, ResourceRef> {
  const out = new Map<string, ResourceRef>();
  for (const k of builtInKinds()) {
    if (!k.namespaced || !k.verbs.includes("list") || !k.verbs.includes("watch")) continue;
    out.set(`${k.resource}.${k.group}`, {
      group: k.group,
      version: k.version,
      resource: k.resource,
      kind: k.kind,
      namespaced: true,
    });
  }
  return out;
}

/** Whether an update releases quota (upstream's quota monitor update filter). */
function releasesQuota(
  resource: string,
  old: DeepReadonly<KubeObject>,
  next: DeepReadonly<KubeObject>,
  now: Date,
): boolean {
  if (resource === "pods") {
    return (
      isPodCharged(old as DeepReadonly<Pod>, now) && !isPodCharged(next as DeepReadonly<Pod>, now)
    );
  }
  if (resource === "services") {
    return (
      quotaServiceType(old as DeepReadonly<Service>) !==
      quotaServiceType(next as DeepReadonly<Service>)
    );
  }
  return false;
}

export function newResourceQuotaController(
  deps: ResourceQuotaControllerDeps,
  options: ResourceQuotaControllerOptions = {},
): Controller {
  const syncPeriodMs = options.syncPeriodMs ?? 300_000;
  const quotas = deps.informers.forResource<ResourceQuota>(resourceQuotasResource);
  const builtIns = builtInRefs();
  const discovery = newResourceDiscovery(deps.client, []);
  /** Resolved references of the resources quotas count; `null` when not served. */
  const refs = new Map<string, ResourceRef | null>();
  const monitors = new Map<string, SharedInformer<KubeObject>>();
  const logger = deps.logger.with({ controller: "resourcequota" });

  /** `replenishQuota`: the namespace's quotas that track resources of this kind. */
  const quotasTracking = (evaluator: QuotaEvaluator, namespace: string): string[] =>
    quotas.lister
      .list(namespace)
      .filter((q) => evaluator.matchingResources(Object.keys(q.spec?.hard ?? {})).length > 0)
      .map((q) => keyOf(q));

  let controller: Controller | undefined;
  const replenish = (evaluator: QuotaEvaluator, object: DeepReadonly<KubeObject>): void => {
    for (const key of quotasTracking(evaluator, object.metadata.namespace ?? "")) {
      controller?.enqueue(key);
    }
  };

  const monitorFor = (ref: ResourceRef, evaluator: QuotaEvaluator): SharedInformer<KubeObject> => {
    const id = `${ref.resource}.${ref.group}`;
    const existing = monitors.get(id);
    if (existing !== undefined) return existing;
    const informer = deps.informers.forResource<KubeObject>(ref);
    informer.addEventHandler({
      onUpdate: (old, next) => {
        if (releasesQuota(ref.resource, old, next, deps.clock.now())) replenish(evaluator, next);
      },
      onDelete: (deleted) => {
        replenish(evaluator, deleted instanceof DeletedFinalStateUnknown ? deleted.obj : deleted);
      },
    });
    monitors.set(id, informer);
    return informer;
  };

  /** Looks a resource up: built in, or the custom resource of an established CRD. */
  const resolve = async (group: string, resource: string): Promise<void> => {
    const id = `${resource}.${group}`;
    if (refs.get(id) !== undefined) return;
    const builtIn = builtIns.get(id);
    if (builtIn !== undefined) {
      refs.set(id, builtIn);
      return;
    }
    const found = (await discovery.discover()).resources.find(
      (r) => r.group === group && r.resource === resource && r.namespaced,
    );
    refs.set(id, found ?? null);
  };

  const objectsOf: ObjectSource = (evaluator, namespace) => {
    const ref = refs.get(`${evaluator.resource}.${evaluator.group}`);
    if (ref === undefined) return "pending";
    if (ref === null) return "unknown";
    const informer = monitorFor(ref, evaluator);
    return informer.hasSynced() ? informer.lister.list(namespace) : "pending";
  };

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const [namespace = "", name = ""] = key.split("/");
    const quota = quotas.lister.get(namespace, name);
    if (quota === undefined) return done;
    const hard = Object.keys(quota.spec?.hard ?? {});
    const kinds = new Map<string, { group: string; resource: string }>();
    for (const n of hard) {
      const counted = parseObjectCountName(n);
      if (counted !== undefined) kinds.set(`${counted.resource}.${counted.group}`, counted);
    }
    for (const resource of [
      "pods",
      "services",
      "configmaps",
      "secrets",
      "resourcequotas",
      "replicationcontrollers",
    ]) {
      if (quotaEvaluatorFor("", resource).matchingResources(hard).length > 0) {
        kinds.set(`${resource}.`, { group: "", resource });
      }
    }
    for (const { group, resource } of kinds.values()) await resolve(group, resource);
    const result = computeQuotaStatus(quota, objectsOf, deps.clock.now());
    if (result.kind === "pending") return requeueAfter(pendingRetryMs);
    if (result.dirty) {
      const next = deepCopy(quota) as ResourceQuota;
      next.status = result.status;
      try {
        await deps.client.updateStatus<ResourceQuota>(resourceQuotasResource, next);
      } catch (error: unknown) {
        if (isNotFound(error)) return done;
        throw error;
      }
      logger.v(4).info("Updated quota usage", { quota: key });
    }
    return requeueAfter(syncPeriodMs);
  };

  controller = defineController<ResourceQuota>({
    name: "resourcequota",
    primary: quotas,
    // Status changes come from this controller and from admission; only new hard limits matter.
    primaryToKeys: (event) => {
      if (event.type !== "update") return [keyOf(event.object)];
      const before = usageOf(event.oldObject.spec?.hard);
      return usageEquals(before, usageOf(event.object.spec?.hard)) ? [] : [keyOf(event.object)];
    },
    reconcile,
    workers: options.workers ?? 5,
    clock: deps.clock,
    logger: deps.logger,
  });
  return controller;
}
