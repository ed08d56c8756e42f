/**
 * The Queues view's model: each ClusterQueue's quota against its usage per flavor and resource
 * (`spec.resourceGroups` against `status.flavorsUsage`), its cohort, its pending and admitted
 * Workloads; each LocalQueue; and Kueue's plain pods: every pod group (`kueue.x-k8s.io/pod-group-name`)
 * or single queued pod, with the pods still held by the admission scheduling gate.
 */
import {
  admissionGate,
  type ClusterQueue,
  findWorkloadCondition,
  hasQuotaReservation,
  isWorkloadAdmitted,
  isWorkloadFinished,
  type KueueWorkload,
  type LocalQueue,
  type Pod,
  podGroupNameLabel,
  podGroupTotalCountAnnotation,
  quantityAmount,
  queueNameLabel,
  quotaReservedCondition,
} from "../../api/index.ts";

export interface QuotaCell {
  readonly flavor: string;
  readonly resource: string;
  /** In `quantityAmount` units (cpu millicores, bytes, counts). */
  readonly nominal: number;
  readonly borrowingLimit: number | undefined;
  readonly used: number;
  readonly borrowed: number;
}

export interface QueuedWorkload {
  readonly namespace: string;
  readonly name: string;
  readonly queue: string;
  /** QuotaReserved's message for a pending workload. */
  readonly message: string;
}

export interface ClusterQueueRow {
  readonly name: string;
  readonly cohort: string;
  readonly strategy: string;
  readonly quotas: readonly QuotaCell[];
  readonly pending: readonly QueuedWorkload[];
  readonly admitted: readonly QueuedWorkload[];
  /** The Active condition's reason and message. */
  readonly active: { readonly status: string; readonly message: string } | undefined;
}

export interface LocalQueueRow {
  readonly namespace: string;
  readonly name: string;
  readonly clusterQueue: string;
  readonly pending: number;
  readonly admitted: number;
}

export interface PlainPodGroup {
  readonly namespace: string;
  /** The pod-group-name label, or the pod's name for a single pod. */
  readonly name: string;
  readonly single: boolean;
  readonly queue: string;
  /** The pod-group-total-count annotation, when set. */
  readonly totalCount: number | undefined;
  readonly pods: number;
  readonly gated: readonly string[];
}

function amount(resource: string, quantity: string | number | undefined): number {
  return quantity === undefined ? 0 : quantityAmount(resource, String(quantity));
}

/** The ClusterQueue a workload is in: its admission's, else its LocalQueue's. */
function clusterQueueOf(w: KueueWorkload, localQueues: ReadonlyMap<string, string>): string {
  return (
    w.status?.admission?.clusterQueue ??
    localQueues.get(`${w.metadata.namespace ?? ""}/${w.spec.queueName ?? ""}`) ??
    ""
  );
}

export function clusterQueueRows(
  clusterQueues: readonly ClusterQueue[],
  localQueues: readonly LocalQueue[],
  workloads: readonly KueueWorkload[],
): ClusterQueueRow[] {
  const lqTarget = new Map(
    localQueues.map((lq) => [
      `${lq.metadata.namespace ?? ""}/${lq.metadata.name ?? ""}`,
      lq.spec.clusterQueue ?? "",
    ]),
  );
  const queued = (w: KueueWorkload): QueuedWorkload => ({
    namespace: w.metadata.namespace ?? "",
    name: w.metadata.name ?? "",
    queue: w.spec.queueName ?? "",
    message: findWorkloadCondition(w.status?.conditions, quotaReservedCondition)?.message ?? "",
  });
  const live = workloads.filter((w) => !isWorkloadFinished(w));
  return clusterQueues
    .map((cq): ClusterQueueRow => {
      const name = cq.metadata.name ?? "";
      const usage = new Map<string, { total?: string; borrowed?: string }>();
      for (const f of cq.status?.flavorsUsage ?? []) {
        for (const r of f.resources) usage.set(`${f.name}/${r.name}`, r);
      }
      const quotas = (cq.spec.resourceGroups ?? []).flatMap((group) =>
        group.flavors.flatMap((flavor) =>
          flavor.resources.map(
            (r): QuotaCell => ({
              flavor: flavor.name,
              resource: r.name,
              nominal: amount(r.name, r.nominalQuota),
              borrowingLimit:
                r.borrowingLimit === undefined ? undefined : amount(r.name, r.borrowingLimit),
              used: amount(r.name, usage.get(`${flavor.name}/${r.name}`)?.total),
              borrowed: amount(r.name, usage.get(`${flavor.name}/${r.name}`)?.borrowed),
            }),
          ),
        ),
      );
      const mine = live.filter((w) => clusterQueueOf(w, lqTarget) === name);
      const active = cq.status?.conditions?.find((c) => c.type === "Active");
      return {
        name,
        cohort: cq.spec.cohort ?? "",
        strategy: cq.spec.queueingStrategy ?? "BestEffortFIFO",
        quotas,
        pending: mine.filter((w) => !hasQuotaReservation(w)).map(queued),
        admitted: mine.filter((w) => isWorkloadAdmitted(w)).map(queued),
        active:
          active === undefined
            ? undefined
            : { status: active.status, message: active.message ?? "" },
      };
    })
    .sort((a, b) => a.cohort.localeCompare(b.cohort) || a.name.localeCompare(b.name));
}

export function localQueueRows(localQueues: readonly LocalQueue[]): LocalQueueRow[] {
  return localQueues.map((lq) => ({
    namespace: lq.metadata.namespace ?? "",
    name: lq.metadata.name ?? "",
    clusterQueue: lq.spec.clusterQueue ?? "",
    pending: lq.status?.pendingWorkloads ?? 0,
    admitted: lq.status?.admittedWorkloads ?? 0,
  }));
}

/** Queued plain pods by group (single pods as groups of one); finished pods are left out. */
export function plainPodGroups(pods: readonly Pod[]): PlainPodGroup[] {
  const groups = new Map<string, { group: PlainPodGroup; gated: string[] }>();
  for (const pod of pods) {
    const labels = pod.metadata.labels ?? {};
    const queue = labels[queueNameLabel];
    if (
      queue === undefined ||
      pod.status?.phase === "Succeeded" ||
      pod.status?.phase === "Failed"
    ) {
      continue;
    }
    const namespace = pod.metadata.namespace ?? "";
    const groupName = labels[podGroupNameLabel];
    const name = groupName ?? pod.metadata.name ?? "";
    const key = `${namespace}/${groupName === undefined ? "pod" : "group"}/${name}`;
    let entry = groups.get(key);
    if (entry === undefined) {
      const total = pod.metadata.annotations?.[podGroupTotalCountAnnotation];
      entry = {
        group: {
          namespace,
          name,
          single: groupName === undefined,
          queue,
          totalCount: total === undefined ? undefined : Number(total),
          pods: 0,
          gated: [],
        },
        gated: [],
      };
      groups.set(key, entry);
    }
    entry.group = { ...entry.group, pods: entry.group.pods + 1 };
    if ((pod.spec.schedulingGates ?? []).some((g) => g.name === admissionGate)) {
      entry.gated.push(pod.metadata.name ?? "");
    }
  }
  return [...groups.values()]
    .map(({ group, gated }) => ({ ...group, gated: gated.sort() }))
    .sort(
      (a, b) =>
        a.namespace.localeCompare(b.namespace) ||
        Number(a.single) - Number(b.single) ||
        a.name.localeCompare(b.name),
    );
}
