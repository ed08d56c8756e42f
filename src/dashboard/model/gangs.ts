/**
 * The Gangs view's model: every Workload with its pod groups — standalone PodGroups of its
 * templates and replicas of its embedded groups — each with its minCount, its members scheduled
 * (bound to a node) and pending, the scheduler's word on it (the PodGroup's PodGroupScheduled
 * condition) and on its pods (their PodScheduled condition). PodGroups whose Workload does not
 * exist are listed under that missing name.
 */
import {
  minCountOf,
  type Pod,
  type PodGroup,
  podGroupScheduledCondition,
  type Workload,
} from "../../api/index.ts";

export interface GangMember {
  readonly name: string;
  readonly node: string;
  /** The pod's PodScheduled condition message when it is not scheduled, else "". */
  readonly message: string;
}

export interface GangRow {
  /** `podgroup/NAME` or `NAME/REPLICA` for an embedded group's replica. */
  readonly key: string;
  readonly label: string;
  /** "template NAME" or "group NAME". */
  readonly origin: string;
  readonly minCount: number | undefined;
  readonly scheduled: readonly GangMember[];
  readonly pending: readonly GangMember[];
  /** PodGroupScheduled: status and reason/message, when the scheduler has set it. */
  readonly condition:
    | { readonly status: string; readonly reason: string; readonly message: string }
    | undefined;
  /** Distinct PodScheduled messages of the pending pods. */
  readonly podMessages: readonly string[];
}

export interface WorkloadSection {
  readonly namespace: string;
  readonly name: string;
  /** False when PodGroups name a Workload that does not exist. */
  readonly exists: boolean;
  readonly groups: readonly GangRow[];
}

function memberOf(pod: Pod): GangMember {
  const node = pod.spec.nodeName ?? "";
  const scheduled = pod.status?.conditions?.find((c) => c.type === "PodScheduled");
  return {
    name: pod.metadata.name ?? "",
    node,
    message: node === "" && scheduled?.status === "False" ? (scheduled.message ?? "") : "",
  };
}

function row(
  key: string,
  label: string,
  origin: string,
  minCount: number | undefined,
  members: readonly Pod[],
  group: PodGroup | undefined,
): GangRow {
  const all = members.map(memberOf).sort((a, b) => a.name.localeCompare(b.name));
  const pending = all.filter((m) => m.node === "");
  const condition = group?.status?.conditions?.find((c) => c.type === podGroupScheduledCondition);
  return {
    key,
    label,
    origin,
    minCount,
    scheduled: all.filter((m) => m.node !== ""),
    pending,
    condition:
      condition === undefined
        ? undefined
        : {
            status: condition.status,
            reason: condition.reason ?? "",
            message: condition.message ?? "",
          },
    podMessages: [...new Set(pending.map((m) => m.message).filter((m) => m !== ""))],
  };
}

const nsName = (o: { metadata: { namespace?: string; name?: string } }): string =>
  `${o.metadata.namespace ?? ""}/${o.metadata.name ?? ""}`;

/** One section per Workload (and per missing Workload PodGroups name), by namespace and name. */
export function gangSections(
  workloads: readonly Workload[],
  podGroups: readonly PodGroup[],
  pods: readonly Pod[],
): WorkloadSection[] {
  const live = pods.filter((p) => p.spec.workloadRef !== undefined);
  const byGroup = new Map<string, Pod[]>();
  const byEmbedded = new Map<string, Pod[]>();
  for (const pod of live) {
    const ref = pod.spec.workloadRef;
    const ns = pod.metadata.namespace ?? "";
    if (ref === undefined) continue;
    if (ref.podGroupName !== undefined && ref.podGroupName !== "") {
      push(byGroup, `${ns}/${ref.podGroupName}`, pod);
    } else if (ref.podGroup !== undefined && ref.podGroup !== "") {
      push(byEmbedded, `${ns}/${ref.name}/${ref.podGroup}`, pod);
    }
  }
  const known = new Map(workloads.map((w) => [nsName(w), w]));
  const sections = new Map<
    string,
    { namespace: string; name: string; exists: boolean; groups: GangRow[] }
  >();
  for (const w of workloads) {
    sections.set(nsName(w), {
      namespace: w.metadata.namespace ?? "",
      name: w.metadata.name ?? "",
      exists: true,
      groups: [],
    });
  }
  for (const g of podGroups) {
    const ns = g.metadata.namespace ?? "";
    const wKey = `${ns}/${g.spec.workloadRef.name}`;
    const workload = known.get(wKey);
    const template = workload?.spec.podGroupTemplates?.find(
      (t) => t.name === g.spec.podGroupTemplateName,
    );
    let section = sections.get(wKey);
    if (section === undefined) {
      section = { namespace: ns, name: g.spec.workloadRef.name, exists: false, groups: [] };
      sections.set(wKey, section);
    }
    const name = g.metadata.name ?? "";
    section.groups.push(
      row(
        `podgroup/${name}`,
        name,
        `template ${g.spec.podGroupTemplateName}`,
        template === undefined ? undefined : minCountOf(template.policy),
        byGroup.get(`${ns}/${name}`) ?? [],
        g,
      ),
    );
  }
  for (const w of workloads) {
    const section = sections.get(nsName(w));
    for (const group of w.spec.podGroups ?? []) {
      const members = byEmbedded.get(`${nsName(w)}/${group.name}`) ?? [];
      const replicas = new Map<string, Pod[]>();
      for (const pod of members)
        push(replicas, pod.spec.workloadRef?.podGroupReplicaKey ?? "", pod);
      if (replicas.size === 0) replicas.set("", []);
      for (const [replica, replicaPods] of [...replicas].sort(([a], [b]) => a.localeCompare(b))) {
        section?.groups.push(
          row(
            `${group.name}/${replica}`,
            replica === "" ? group.name : `${group.name} #${replica}`,
            `group ${group.name}`,
            minCountOf(group.policy),
            replicaPods,
            undefined,
          ),
        );
      }
    }
  }
  return [...sections.values()]
    .map((s) => ({ ...s, groups: s.groups.sort((a, b) => a.key.localeCompare(b.key)) }))
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
