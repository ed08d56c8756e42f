/**
 * The in-tree plugins and the default profile. The only file that knows every plugin: `cmd/`
 * adds out-of-tree plugins (gang scheduling) by extending the map it returns.
 */
import type { PluginConfig, PluginFactory, Profile } from "../framework/index.ts";
import * as defaultBinder from "./default-binder/default-binder.ts";
import * as defaultPreemption from "./default-preemption/default-preemption.ts";
import * as gangScheduling from "./gang-scheduling/gang-scheduling.ts";
import * as interPodAffinity from "./inter-pod-affinity/inter-pod-affinity.ts";
import * as nodeAffinity from "./node-affinity/node-affinity.ts";
import * as nodeName from "./node-name/node-name.ts";
import * as nodePorts from "./node-ports/node-ports.ts";
import * as nodeResourcesFit from "./node-resources-fit/node-resources-fit.ts";
import * as nodeUnschedulable from "./node-unschedulable/node-unschedulable.ts";
import * as podTopologySpread from "./pod-topology-spread/pod-topology-spread.ts";
import * as prioritySort from "./priority-sort/priority-sort.ts";
import * as schedulingGates from "./scheduling-gates/scheduling-gates.ts";
import * as taintToleration from "./taint-toleration/taint-toleration.ts";

/** The name of the default profile, and the default `spec.schedulerName`. */
export const defaultSchedulerName = "default-scheduler";

/** Every in-tree plugin by name. A fresh map each call: callers may add to it. */
export function inTreeRegistry(): Map<string, PluginFactory> {
  return new Map<string, PluginFactory>([
    [prioritySort.name, prioritySort.newPrioritySort],
    [schedulingGates.name, schedulingGates.newSchedulingGates],
    [gangScheduling.name, gangScheduling.newGangScheduling],
    [nodeUnschedulable.name, nodeUnschedulable.newNodeUnschedulable],
    [nodeName.name, nodeName.newNodeName],
    [taintToleration.name, taintToleration.newTaintToleration],
    [nodeAffinity.name, nodeAffinity.newNodeAffinity],
    [nodePorts.name, nodePorts.newNodePorts],
    [nodeResourcesFit.name, nodeResourcesFit.newNodeResourcesFit],
    [podTopologySpread.name, podTopologySpread.newPodTopologySpread],
    [interPodAffinity.name, interPodAffinity.newInterPodAffinity],
    [defaultPreemption.name, defaultPreemption.newDefaultPreemption],
    [defaultBinder.name, defaultBinder.newDefaultBinder],
  ]);
}

/**
 * The default profile's plugins in upstream's order, with upstream's score weights
 * (GangScheduling right after SchedulingGates, as upstream enables it; TaintToleration 3, NodeAffinity 2, PodTopologySpread 2, InterPodAffinity 2, the rest 1).
 */
export const defaultPlugins: readonly PluginConfig[] = Object.freeze([
  { name: prioritySort.name },
  { name: schedulingGates.name },
  { name: gangScheduling.name },
  { name: nodeUnschedulable.name },
  { name: nodeName.name },
  { name: taintToleration.name, weight: 3 },
  { name: nodeAffinity.name, weight: 2 },
  { name: nodePorts.name },
  { name: nodeResourcesFit.name, weight: 1 },
  { name: podTopologySpread.name, weight: 2 },
  { name: interPodAffinity.name, weight: 2 },
  { name: defaultPreemption.name },
  { name: defaultBinder.name },
]);

/** The `default-scheduler` profile. */
export function defaultProfile(): Profile {
  return { schedulerName: defaultSchedulerName, plugins: defaultPlugins };
}
