/**
 * DefaultPreemption (PostFilter): when a pod fits nowhere, find nodes where evicting lower-priority
 * pods would make room, pick the one that hurts least, evict its victims through the API (each
 * gets the `DisruptionTarget` condition with reason `PreemptionByScheduler`, then is deleted) and
 * nominate the node for the preemptor (`status.nominatedNodeName`). The preemptor is retried when
 * the victims are gone. Victims waiting at Permit are rejected instead of deleted.
 */
import { podCondition } from "../../../api/index.ts";
import { isNotFound, podsResource } from "../../../client/index.ts";
import { rfc3339 } from "../../../util/index.ts";
import {
  type AnyPlugin,
  asStatus,
  type CycleState,
  Diagnosis,
  FitError,
  type Handle,
  isSuccess,
  type NodeInfo,
  NodeToStatus,
  type NodeToStatusReader,
  type PodGroupPostFilterPlugin,
  type PodInfo,
  type PodObject,
  type PostFilterPlugin,
  type PostFilterResult,
  podPriority,
  type Status,
  statusMessage,
  success,
  unresolvable,
  unschedulable,
  withPlugin,
} from "../../framework/index.ts";
import { selectGroupVictims } from "./group-preemption.ts";
import { pickOneNodeForPreemption, selectVictimsOnNode, type Victims } from "./victims.ts";

export const name = "DefaultPreemption";
export const reasonNotHelpful = "Preemption is not helpful for scheduling";
export const reasonPolicyNever = "not eligible due to preemptionPolicy=Never.";
export const reasonTerminatingVictim =
  "not eligible due to a terminating pod on the nominated node.";
export const disruptionTargetCondition = "DisruptionTarget";
export const reasonPreemptionByScheduler = "PreemptionByScheduler";

export interface DefaultPreemptionArgs {
  /** Dry-run at least this percentage of the potential nodes. @default 10 */
  readonly minCandidateNodesPercentage?: number;
  /** Dry-run at least this many nodes. @default 100 */
  readonly minCandidateNodesAbsolute?: number;
}

/** Whether the pod is terminating because the scheduler preempted it. */
export function terminatingByPreemption(pod: PodObject): boolean {
  if (pod.metadata.deletionTimestamp === undefined) return false;
  const condition = podCondition(pod, disruptionTargetCondition);
  return condition?.status === "True" && condition.reason === reasonPreemptionByScheduler;
}

/**
 * Upstream's `PodEligibleToPreemptOthers`: not with `preemptionPolicy: Never`, and not while a
 * victim of an earlier preemption still terminates on the nominated node (unless that node no
 * longer fits at all).
 */
export function eligibleToPreempt(
  handle: Handle,
  pod: PodObject,
  nominatedStatus: Status,
): string | undefined {
  if (pod.spec.preemptionPolicy === "Never") return reasonPolicyNever;
  const nominated = pod.status?.nominatedNodeName ?? "";
  if (nominated === "") return undefined;
  if (nominatedStatus.code === "UnschedulableAndUnresolvable") return undefined;
  const nodeInfo = handle.snapshot().get(nominated);
  if (nodeInfo === undefined) return undefined;
  const priority = podPriority(pod);
  for (const p of nodeInfo.pods) {
    if (podPriority(p.pod) < priority && terminatingByPreemption(p.pod)) {
      return reasonTerminatingVictim;
    }
  }
  return undefined;
}

export function numCandidates(numNodes: number, args: DefaultPreemptionArgs): number {
  const percentage = args.minCandidateNodesPercentage ?? 10;
  const absolute = args.minCandidateNodesAbsolute ?? 100;
  const n = Math.max(Math.trunc((numNodes * percentage) / 100), absolute);
  return Math.min(n, numNodes);
}

interface DryRun {
  readonly candidates: Map<string, Victims>;
  readonly statuses: NodeToStatus;
}

function dryRunPreemption(
  handle: Handle,
  state: CycleState,
  pod: PodObject,
  potential: readonly NodeInfo[],
  offset: number,
  wanted: number,
): DryRun {
  const pdbs = handle.listers.podDisruptionBudgets();
  const nonViolating = new Map<string, Victims>();
  const violating = new Map<string, Victims>();
  const statuses = new NodeToStatus();
  for (let i = 0; i < potential.length; i++) {
    const nodeInfo = (potential[(offset + i) % potential.length] as NodeInfo).clone();
    const result = selectVictimsOnNode(handle, state.clone(), pod, nodeInfo, pdbs);
    if (
      isSuccess(result.status) &&
      result.victims !== undefined &&
      result.victims.pods.length > 0
    ) {
      const target = result.victims.numPdbViolations === 0 ? nonViolating : violating;
      target.set(nodeInfo.name, result.victims);
      if (nonViolating.size > 0 && nonViolating.size + violating.size >= wanted) break;
      continue;
    }
    const status = isSuccess(result.status)
      ? asStatus(new Error(`expected at least one victim pod on node "${nodeInfo.name}"`))
      : result.status;
    statuses.set(nodeInfo.name, status);
  }
  return { candidates: new Map([...nonViolating, ...violating]), statuses };
}

async function preemptVictim(
  handle: Handle,
  preemptor: PodObject,
  victim: PodInfo,
  nodeName: string,
): Promise<void> {
  const waiting = handle.getWaitingPod(victim.uid);
  if (waiting !== undefined) {
    waiting.reject(name, "preempted");
  } else {
    const namespace = victim.pod.metadata.namespace ?? "";
    const podName = victim.pod.metadata.name ?? "";
    const condition = {
      type: disruptionTargetCondition,
      status: "True",
      reason: reasonPreemptionByScheduler,
      message: `${preemptor.spec.schedulerName ?? "default-scheduler"}: preempting to accommodate a higher priority pod`,
      lastTransitionTime: rfc3339(handle.clock.now()),
    };
    try {
      await handle.client.patch(
        podsResource,
        namespace,
        podName,
        "strategic",
        { status: { conditions: [condition] } },
        { subresource: "status" },
      );
      await handle.client.delete(podsResource, namespace, podName);
    } catch (error: unknown) {
      if (!isNotFound(error)) throw error;
      return;
    }
  }
  handle.eventRecorder.event(
    victim.pod,
    "Normal",
    "Preempted",
    "Preempting",
    `Preempted by pod ${preemptor.metadata.uid ?? ""} on node ${nodeName}`,
  );
}

/** Evicts the victims and clears the nominations of lower-priority pods on the node. */
async function prepareCandidate(
  handle: Handle,
  preemptor: PodObject,
  nodeName: string,
  victims: Victims,
): Promise<Status> {
  try {
    await Promise.all(
      victims.pods
        .filter((v) => v.pod.metadata.deletionTimestamp === undefined)
        .map((v) => preemptVictim(handle, preemptor, v, nodeName)),
    );
  } catch (error: unknown) {
    return asStatus(error);
  }
  const priority = podPriority(preemptor);
  const lower = handle.nominatedPodsForNode(nodeName).filter((p) => podPriority(p.pod) < priority);
  await Promise.allSettled(
    lower.map((p) =>
      handle.client.patch(
        podsResource,
        p.pod.metadata.namespace ?? "",
        p.pod.metadata.name ?? "",
        "merge",
        { status: { nominatedNodeName: null } },
        { subresource: "status" },
      ),
    ),
  );
  return success;
}

export function newDefaultPreemption(handle: Handle, rawArgs: unknown): AnyPlugin {
  const args = (rawArgs ?? {}) as DefaultPreemptionArgs;

  const preempt = async (
    state: CycleState,
    queuedPod: PodObject,
    m: NodeToStatusReader,
  ): Promise<PostFilterResult> => {
    const pod = handle.listers.pod(
      queuedPod.metadata.namespace ?? "",
      queuedPod.metadata.name ?? "",
    );
    if (pod === undefined) {
      return { status: asStatus(new Error(`pod "${queuedPod.metadata.name}" not found in cache`)) };
    }
    const notEligible = eligibleToPreempt(handle, pod, m.get(pod.status?.nominatedNodeName ?? ""));
    if (notEligible !== undefined) return { status: unschedulable(notEligible) };

    const allNodes = handle.snapshot().list();
    if (allNodes.length === 0) return { status: asStatus(new Error("no nodes available")) };
    const potential = m.nodesForStatusCode(allNodes, "Unschedulable");
    const dryRun =
      potential.length === 0
        ? { candidates: new Map<string, Victims>(), statuses: new NodeToStatus() }
        : dryRunPreemption(
            handle,
            state,
            pod,
            potential,
            handle.random.int(potential.length),
            numCandidates(potential.length, args),
          );
    if (dryRun.candidates.size === 0) {
      const diagnosis = new Diagnosis();
      dryRun.statuses.forEachExplicitNode((node, s) => diagnosis.nodeToStatus.set(node, s));
      diagnosis.nodeToStatus.setAbsentNodesStatus(unresolvable(reasonNotHelpful));
      const fitError = new FitError(pod, allNodes.length, diagnosis);
      return {
        status: unschedulable(fitError.message),
        nominatingInfo: { nominatedNodeName: "", mode: "Override" },
      };
    }
    const best = pickOneNodeForPreemption(dryRun.candidates, handle.clock.now().getTime());
    const victims = best === undefined ? undefined : dryRun.candidates.get(best);
    if (best === undefined || victims === undefined) {
      return { status: unschedulable("no candidate node for preemption") };
    }
    handle.logger.v(2).info("Preempting", {
      pod: `${pod.metadata.namespace}/${pod.metadata.name}`,
      node: best,
      victims: victims.pods.length,
    });
    const prepared = await prepareCandidate(handle, pod, best, victims);
    if (!isSuccess(prepared)) return { status: prepared };
    return { status: success, nominatingInfo: { nominatedNodeName: best, mode: "Override" } };
  };

  return {
    name,
    selectGroupVictims(pods, needed, simulation) {
      return selectGroupVictims(handle, pods, needed, simulation, (state, pod, potential) => {
        const wanted = numCandidates(potential.length, args);
        return dryRunPreemption(
          handle,
          state,
          pod,
          potential,
          handle.random.int(potential.length),
          wanted,
        ).candidates;
      });
    },
    async evictGroupVictims(preemptor, plan) {
      const byNode = new Map<string, PodInfo[]>();
      for (const { podInfo, nodeName } of plan.victims) {
        byNode.set(nodeName, [...(byNode.get(nodeName) ?? []), podInfo]);
      }
      const results = await Promise.all(
        [...byNode].map(([node, pods]) =>
          prepareCandidate(handle, preemptor, node, { pods, numPdbViolations: 0 }),
        ),
      );
      return results.find((s) => !isSuccess(s)) ?? success;
    },
    async postFilter(state, pod, m) {
      const result = await preempt(state, pod, m);
      const message = statusMessage(result.status);
      if (message === "") return result;
      return {
        ...result,
        status: withPlugin({ ...result.status, reasons: [`preemption: ${message}`] }, name),
      };
    },
  } satisfies PostFilterPlugin & PodGroupPostFilterPlugin;
}
