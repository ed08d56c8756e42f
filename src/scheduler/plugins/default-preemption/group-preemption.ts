/**
 * Preemption for a whole gang (upstream 1.37's workload-aware preemption, simplified): members
 * are placed one by one in a simulation; a member that fits nowhere gets the victims of the best
 * candidate node (the same dry run and minimal victim sets as single-pod preemption), which are
 * taken off that node in the simulation so later members see the room. A plan comes out only
 * when at least `needed` members are placed; otherwise nothing is evicted.
 *
 * Candidates are ranked first by the running gangs their victims would break (a victim that is a
 * member of a gang counts as breaking that whole gang, once per plan): fewer broken gangs, then
 * the lower highest priority among them; ties go to `pickOneNodeForPreemption` (budget
 * violations, victim priorities, victim count, start times).
 */
import {
  type CycleState,
  type GroupPreemptionPlan,
  type GroupSimulation,
  type Handle,
  isSuccess,
  type NodeInfo,
  type PodInfo,
  type PodObject,
  podPriority,
  type Status,
  unschedulable,
} from "../../framework/index.ts";
import { pickOneNodeForPreemption, type Victims } from "./victims.ts";

/** The candidate nodes and their minimal victims for `pod` (default preemption's dry run). */
export type DryRun = (
  state: CycleState,
  pod: PodObject,
  potential: readonly NodeInfo[],
) => ReadonlyMap<string, Victims>;

/** `preemption: 2 of minCount pods of the group could be placed`, when preemption cannot help. */
export function groupPreemptionFailedMessage(placed: number, needed: number): string {
  return `preemption: ${placed} of ${needed} required pods of the group can be placed after preemption`;
}

/** The key of the running gang `pod` belongs to, with the gang's highest member priority. */
function gangOf(handle: Handle, pod: PodObject): { key: string; priority: number } | undefined {
  const groups = handle.podGroups;
  const ref = groups.groupOf(pod);
  if (ref === undefined) return undefined;
  const resolved = groups.resolve(ref);
  if (!resolved.ok || resolved.policy.kind !== "gang") return undefined;
  let priority = podPriority(pod);
  for (const member of groups.members(ref.key)) priority = Math.max(priority, podPriority(member));
  return { key: ref.key, priority };
}

/** The gangs a candidate's victims would newly break: how many, and the highest priority. */
export function gangCost(
  handle: Handle,
  victims: readonly PodInfo[],
  broken: ReadonlySet<string>,
): { readonly gangs: number; readonly highest: number } {
  const seen = new Set<string>();
  let highest = Number.MIN_SAFE_INTEGER;
  for (const v of victims) {
    const gang = gangOf(handle, v.pod);
    if (gang === undefined || broken.has(gang.key) || seen.has(gang.key)) continue;
    seen.add(gang.key);
    highest = Math.max(highest, gang.priority);
  }
  return { gangs: seen.size, highest };
}

/** The best candidate node: fewest (then least important) broken gangs, then upstream's rules. */
export function pickNodeForGroup(
  handle: Handle,
  candidates: ReadonlyMap<string, Victims>,
  broken: ReadonlySet<string>,
  now: number,
): string | undefined {
  let best: { gangs: number; highest: number } | undefined;
  let tied = new Map<string, Victims>();
  for (const [node, victims] of candidates) {
    const cost = gangCost(handle, victims.pods, broken);
    const better =
      best === undefined ||
      cost.gangs < best.gangs ||
      (cost.gangs === best.gangs && cost.highest < best.highest);
    if (better) {
      best = cost;
      tied = new Map([[node, victims]]);
    } else if (cost.gangs === best?.gangs && cost.highest === best.highest) {
      tied.set(node, victims);
    }
  }
  return pickOneNodeForPreemption(tied, now);
}

/** Finds victims so that `needed` of `pods` (in order) fit; see the file comment. */
export function selectGroupVictims(
  handle: Handle,
  pods: readonly PodObject[],
  needed: number,
  simulation: GroupSimulation,
  dryRun: DryRun,
): { readonly plan: GroupPreemptionPlan } | { readonly status: Status } {
  const nominations = new Map<string, string>();
  const victims: { podInfo: PodInfo; nodeName: string }[] = [];
  const broken = new Set<string>();
  const now = handle.clock.now().getTime();
  let placed = 0;
  for (const pod of pods) {
    if (placed >= needed) break;
    const uid = pod.metadata.uid ?? "";
    const tried = simulation.place(pod);
    if ("node" in tried) {
      nominations.set(uid, tried.node);
      placed++;
      continue;
    }
    if (pod.spec.preemptionPolicy === "Never") continue;
    const potential = tried.statuses.nodesForStatusCode(handle.snapshot().list(), "Unschedulable");
    if (potential.length === 0) continue;
    const candidates = dryRun(tried.state, pod, potential);
    const node = pickNodeForGroup(handle, candidates, broken, now);
    const chosen = node === undefined ? undefined : candidates.get(node);
    if (node === undefined || chosen === undefined) continue;
    for (const victim of chosen.pods) {
      simulation.remove(victim);
      victims.push({ podInfo: victim, nodeName: node });
      const gang = gangOf(handle, victim.pod);
      if (gang !== undefined) broken.add(gang.key);
    }
    if (!isSuccess(simulation.placeOn(pod, node))) continue;
    nominations.set(uid, node);
    placed++;
  }
  if (placed < needed || victims.length === 0) {
    return { status: unschedulable(groupPreemptionFailedMessage(placed, needed)) };
  }
  return { plan: { nominations, victims } };
}
