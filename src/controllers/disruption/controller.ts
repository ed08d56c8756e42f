/**
 * The disruption controller (kube-controller-manager's `disruption`): keeps each
 * PodDisruptionBudget's status (expectedPods, desiredHealthy, currentHealthy,
 * disruptionsAllowed, disruptedPods, the DisruptionAllowed condition) and resets stale
 * DisruptionTarget pod conditions. Budgets with `budgetScope: PodGroup` count pod groups.
 * Upstream's pkg/controller/disruption/disruption.go.
 */
import {
  ApiError,
  type CustomResourceDefinition,
  effectiveBudgetScope,
  type KubeObject,
  type LabelSelector,
  matchesLabels,
  type Pod,
  type PodDisruptionBudget,
  type PodGroup,
  selectorFromLabelSelector,
  type Workload,
} from "../../api/index.ts";
import {
  type Client,
  customResourceDefinitionsResource,
  deploymentsResource,
  type InformerFactory,
  keyOf,
  podDisruptionBudgetsResource,
  podGroupsResource,
  podsResource,
  replicaSetsResource,
  replicationControllersResource,
  statefulSetsResource,
  workloadsResource,
} from "../../client/index.ts";
import type { Clock, DeepReadonly, Logger } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  type EventRecorder,
  type InformerEvent,
  referenceTo,
  splitKey,
  watch,
} from "../framework/index.ts";
import type { FinderSources } from "./finders.ts";
import { type DisruptionMetrics, noDisruptionMetrics } from "./metrics.ts";
import { newRestMapper, readScaleSubresource, type ScaleReader } from "./rest-mapper.ts";
import { newStaleDisruptionController } from "./stale-disruption.ts";
import { type BudgetContext, syncBudget } from "./sync.ts";

export interface DisruptionControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
  /** @default noDisruptionMetrics */
  readonly metrics?: DisruptionMetrics;
  /** How an owner's `/scale` is read. @default a GET of `<owner>/scale` */
  readonly readScale?: ScaleReader;
}

export interface DisruptionControllerOptions {
  /** Workers of the budget queue (upstream runs one). @default 1 */
  readonly workers?: number;
}

/** The PDBs in the pod's namespace whose (valid, non-null) selector matches its labels. */
export function budgetsSelecting(
  budgets: readonly DeepReadonly<PodDisruptionBudget>[],
  pod: DeepReadonly<Pod>,
): DeepReadonly<PodDisruptionBudget>[] {
  const labels = pod.metadata.labels ?? {};
  const matching = budgets.filter((pdb) => {
    try {
      return matchesLabels(
        selectorFromLabelSelector(pdb.spec.selector as LabelSelector | undefined),
        labels,
      );
    } catch (error: unknown) {
      if (error instanceof ApiError) return false;
      throw error;
    }
  });
  return matching.sort((a, b) => (a.metadata.name ?? "").localeCompare(b.metadata.name ?? ""));
}

export function newDisruptionController(
  deps: DisruptionControllerDeps,
  options: DisruptionControllerOptions = {},
): Controller {
  const { informers } = deps;
  const pdbs = informers.forResource<PodDisruptionBudget>(podDisruptionBudgetsResource);
  const pods = informers.forResource<Pod>(podsResource);
  const workloads = informers.forResource<Workload>(workloadsResource);
  const podGroups = informers.forResource<PodGroup>(podGroupsResource);
  const crds = informers.forResource<CustomResourceDefinition>(customResourceDefinitionsResource);
  const sources: FinderSources = {
    replicationControllers: informers.forResource<KubeObject>(replicationControllersResource),
    replicaSets: informers.forResource<KubeObject>(replicaSetsResource),
    deployments: informers.forResource<KubeObject>(deploymentsResource),
    statefulSets: informers.forResource<KubeObject>(statefulSetsResource),
    mapKind: newRestMapper(crds),
    readScale: deps.readScale ?? readScaleSubresource(deps.client),
  };
  const metrics = deps.metrics ?? noDisruptionMetrics;
  const context: BudgetContext = {
    client: deps.client,
    clock: deps.clock,
    logger: deps.logger.with({ controller: "disruption" }),
    events: deps.events,
    metrics,
    pods,
    workloads,
    podGroups,
    sources,
    warned: new Map(),
    grouped: new Set(),
  };

  const mapPod = (event: InformerEvent<Pod>): readonly string[] => {
    const pod = event.object;
    const matching = budgetsSelecting(pdbs.lister.list(pod.metadata.namespace ?? ""), pod);
    const first = matching[0];
    if (first === undefined) return [];
    if (matching.length > 1) {
      deps.events.event(
        referenceTo(pod, podsResource),
        "Warning",
        "MultiplePodDisruptionBudgets",
        `Pod "${pod.metadata.namespace ?? ""}"/"${pod.metadata.name ?? ""}" matches multiple PodDisruptionBudgets.  Chose "${first.metadata.name ?? ""}" arbitrarily.`,
      );
    }
    return [keyOf(first)];
  };

  /** Workload and PodGroup changes resize groups: look again at group-scoped budgets. */
  const mapGroupObject = (event: InformerEvent<KubeObject>): readonly string[] =>
    pdbs.lister
      .list(event.object.metadata.namespace ?? "")
      .filter((pdb) => effectiveBudgetScope(pdb.spec as PodDisruptionBudget["spec"]) === "PodGroup")
      .map((pdb) => keyOf(pdb));

  /** Owners changing scale change expectedPods: look again at budgets selecting their pods. */
  const budgetsInNamespace = (event: InformerEvent<KubeObject>): readonly string[] =>
    pdbs.lister.list(event.object.metadata.namespace ?? "").map((pdb) => keyOf(pdb));

  const budgets = defineController<PodDisruptionBudget>({
    name: "disruption",
    primary: pdbs,
    secondary: [
      watch(pods, mapPod),
      watch(workloads, mapGroupObject),
      watch(podGroups, mapGroupObject),
      watch(sources.replicationControllers, budgetsInNamespace),
      watch(sources.replicaSets, budgetsInNamespace),
      watch(sources.deployments, budgetsInNamespace),
      watch(sources.statefulSets, budgetsInNamespace),
      watch(crds, () => []),
    ],
    reconcile: async (key) => {
      const { namespace, name } = splitKey(key);
      const pdb = pdbs.lister.get(namespace, name);
      if (pdb === undefined) {
        context.warned.delete(key);
        context.grouped.delete(key);
        metrics.pdbsUsingPodGrouping(context.grouped.size);
        return {};
      }
      return syncBudget(context, key, pdb);
    },
    workers: options.workers ?? 1,
    clock: deps.clock,
    logger: deps.logger,
  });
  const stale = newStaleDisruptionController({ ...deps, pods });

  return {
    name: "disruption",
    enqueue: (key) => budgets.enqueue(key),
    enqueueAfter: (key, ms) => budgets.enqueueAfter(key, ms),
    hasSynced: () => budgets.hasSynced() && stale.hasSynced(),
    async start(signal) {
      await Promise.all([budgets.start(signal), stale.start(signal)]);
    },
  };
}
