/**
 * Builders for Kueue objects (kueue.x-k8s.io/v1beta1): ResourceFlavor, ClusterQueue,
 * LocalQueue and Workload, as Kueue's own `utiltesting` wrappers build them.
 */
import type {
  ClusterQueue,
  KueueWorkload,
  LocalQueue,
  Pod,
  PodSpec,
  ResourceFlavor,
  Taint,
  Toleration,
} from "../../api/index.ts";
import { makePod } from "./pod-builder.ts";

const apiVersion = "kueue.x-k8s.io/v1beta1";

export function makeResourceFlavor(
  name: string,
  options: {
    nodeLabels?: Record<string, string>;
    nodeTaints?: Taint[];
    tolerations?: Toleration[];
  } = {},
): ResourceFlavor {
  return { apiVersion, kind: "ResourceFlavor", metadata: { name }, spec: { ...options } };
}

/** A quota: flavor → resource → nominal quota, or `{nominal, borrowingLimit, lendingLimit}`. */
export type QuotaSpec = Record<
  string,
  Record<string, string | { nominal: string; borrowingLimit?: string; lendingLimit?: string }>
>;

export class ClusterQueueBuilder {
  readonly #cq: ClusterQueue;
  constructor(name: string) {
    this.#cq = {
      apiVersion,
      kind: "ClusterQueue",
      metadata: { name },
      spec: { namespaceSelector: {}, resourceGroups: [] },
    };
  }
  /** One resource group covering the resources of the first flavor, flavors in order. */
  resourceGroup(quotas: QuotaSpec): this {
    const flavors = Object.entries(quotas);
    const covered = Object.keys(flavors[0]?.[1] ?? {});
    this.#cq.spec.resourceGroups?.push({
      coveredResources: covered,
      flavors: flavors.map(([name, resources]) => ({
        name,
        resources: Object.entries(resources).map(([resource, q]) =>
          typeof q === "string"
            ? { name: resource, nominalQuota: q }
            : {
                name: resource,
                nominalQuota: q.nominal,
                ...(q.borrowingLimit === undefined ? {} : { borrowingLimit: q.borrowingLimit }),
                ...(q.lendingLimit === undefined ? {} : { lendingLimit: q.lendingLimit }),
              },
        ),
      })),
    });
    return this;
  }
  cohort(cohort: string): this {
    this.#cq.spec.cohort = cohort;
    return this;
  }
  strategy(strategy: "StrictFIFO" | "BestEffortFIFO"): this {
    this.#cq.spec.queueingStrategy = strategy;
    return this;
  }
  /** `spec.preemption`: withinClusterQueue, reclaimWithinCohort, borrowWithinCohort. */
  preemption(preemption: NonNullable<ClusterQueue["spec"]["preemption"]>): this {
    this.#cq.spec.preemption = structuredClone(preemption);
    return this;
  }
  whenCanBorrow(value: "Borrow" | "TryNextFlavor"): this {
    this.#cq.spec.flavorFungibility = { ...this.#cq.spec.flavorFungibility, whenCanBorrow: value };
    return this;
  }
  namespaceSelector(selector: NonNullable<ClusterQueue["spec"]["namespaceSelector"]>): this {
    this.#cq.spec.namespaceSelector = selector;
    return this;
  }
  obj(): ClusterQueue {
    return structuredClone(this.#cq);
  }
}

export function makeClusterQueue(name: string): ClusterQueueBuilder {
  return new ClusterQueueBuilder(name);
}

export function makeLocalQueue(name: string, namespace: string, clusterQueue: string): LocalQueue {
  return { apiVersion, kind: "LocalQueue", metadata: { name, namespace }, spec: { clusterQueue } };
}

export class KueueWorkloadBuilder {
  readonly #wl: KueueWorkload;
  constructor(name: string, namespace: string) {
    this.#wl = {
      apiVersion,
      kind: "Workload",
      metadata: { name, namespace, uid: `uid-${name}`, creationTimestamp: "2026-01-01T00:00:00Z" },
      spec: { podSets: [] },
    };
  }
  queue(name: string): this {
    this.#wl.spec.queueName = name;
    return this;
  }
  priority(priority: number): this {
    this.#wl.spec.priority = priority;
    return this;
  }
  created(time: string): this {
    this.#wl.metadata.creationTimestamp = time;
    return this;
  }
  uid(uid: string): this {
    this.#wl.metadata.uid = uid;
    return this;
  }
  label(key: string, value: string): this {
    this.#wl.metadata.labels = { ...this.#wl.metadata.labels, [key]: value };
    return this;
  }
  /** A status condition (`lastTransitionTime` defaults to the creation time). */
  condition(
    type: string,
    status: "True" | "False",
    reason: string,
    message = "",
    at?: string,
  ): this {
    const conditions = (this.#wl.status?.conditions ?? []).filter((c) => c.type !== type);
    conditions.push({
      type,
      status,
      reason,
      message,
      lastTransitionTime: at ?? this.#wl.metadata.creationTimestamp ?? "",
    });
    this.#wl.status = { ...this.#wl.status, conditions };
    return this;
  }
  /**
   * Admitted to `clusterQueue` with every resource of every PodSet on `flavor`, quota reserved
   * at `at` (call after the PodSets).
   */
  admitted(clusterQueue: string, flavor = "default", at?: string): this {
    const podSetAssignments = this.#wl.spec.podSets.map((p) => {
      const requests = p.template.spec?.containers[0]?.resources?.requests ?? {};
      return {
        name: p.name,
        count: p.count,
        flavors: Object.fromEntries(Object.keys(requests).map((r) => [r, flavor])),
        resourceUsage: {},
      };
    });
    this.#wl.status = { ...this.#wl.status, admission: { clusterQueue, podSetAssignments } };
    return this.condition("QuotaReserved", "True", "QuotaReserved", "", at).condition(
      "Admitted",
      "True",
      "Admitted",
      "",
      at,
    );
  }
  /** A PodSet of `count` pods, each with one container requesting `requests`. */
  podSet(
    name: string,
    count: number,
    requests: Record<string, string>,
    spec: Partial<PodSpec> = {},
  ): this {
    this.#wl.spec.podSets.push({
      name,
      count,
      template: {
        spec: { containers: [{ name: "c", image: "pause", resources: { requests } }], ...spec },
      },
    });
    return this;
  }
  obj(): KueueWorkload {
    return structuredClone(this.#wl);
  }
}

export function makeKueueWorkload(name: string, namespace = "default"): KueueWorkloadBuilder {
  return new KueueWorkloadBuilder(name, namespace);
}

/**
 * Kueue's own single-ClusterQueue setup (site/static/examples/admin/single-clusterqueue-setup.yaml)
 * as manifests: ResourceFlavor `default-flavor`, ClusterQueue `cluster-queue` over cpu and
 * memory (36Gi), LocalQueue `user-queue` in `default`; the CPU quota and the flavor's node
 * labels vary.
 */
export function singleClusterQueueSetup(
  cpuQuota: number,
  flavorNodeLabels?: Record<string, string>,
): object[] {
  return [
    {
      apiVersion: "kueue.x-k8s.io/v1beta1",
      kind: "ResourceFlavor",
      metadata: { name: "default-flavor" },
      ...(flavorNodeLabels === undefined ? {} : { spec: { nodeLabels: flavorNodeLabels } }),
    },
    {
      apiVersion: "kueue.x-k8s.io/v1beta1",
      kind: "ClusterQueue",
      metadata: { name: "cluster-queue" },
      spec: {
        namespaceSelector: {},
        resourceGroups: [
          {
            coveredResources: ["cpu", "memory"],
            flavors: [
              {
                name: "default-flavor",
                resources: [
                  { name: "cpu", nominalQuota: cpuQuota },
                  { name: "memory", nominalQuota: "36Gi" },
                ],
              },
            ],
          },
        ],
      },
    },
    {
      apiVersion: "kueue.x-k8s.io/v1beta1",
      kind: "LocalQueue",
      metadata: { namespace: "default", name: "user-queue" },
      spec: { clusterQueue: "cluster-queue" },
    },
  ];
}

/**
 * A pod of Kueue pod group `group` as the webhook leaves it: queue `user-queue`, managed label
 * and finalizer, admission gate, role-hash annotation `role`, total count `total` (omitted when
 * undefined), created at `created`.
 */
export function makeGroupPod(
  name: string,
  group: string,
  options: {
    role?: string;
    total?: number;
    created?: string;
    phase?: "Pending" | "Running" | "Succeeded" | "Failed";
    gated?: boolean;
    finalizer?: boolean;
    annotations?: Record<string, string>;
  } = {},
): Pod {
  const pod = makePod(name)
    .uid(`uid-${name}`)
    .label("kueue.x-k8s.io/queue-name", "user-queue")
    .label("kueue.x-k8s.io/managed", "true")
    .label("kueue.x-k8s.io/pod-group-name", group)
    .annotation("kueue.x-k8s.io/role-hash", options.role ?? "aaaa0000")
    .creationTimestamp(options.created ?? "2026-01-01T00:00:00Z")
    .requests({ cpu: "1" })
    .phase(options.phase ?? "Pending")
    .obj();
  if (options.total !== undefined) {
    pod.metadata.annotations = {
      ...pod.metadata.annotations,
      "kueue.x-k8s.io/pod-group-total-count": String(options.total),
    };
  }
  pod.metadata.annotations = { ...pod.metadata.annotations, ...options.annotations };
  if (options.finalizer !== false) pod.metadata.finalizers = ["kueue.x-k8s.io/managed"];
  if (options.gated !== false) pod.spec.schedulingGates = [{ name: "kueue.x-k8s.io/admission" }];
  return pod;
}
