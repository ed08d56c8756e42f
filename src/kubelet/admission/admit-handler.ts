/**
 * The kubelet's pod admission seam (upstream `lifecycle.PodAdmitHandler`): before a pod bound to
 * the node starts, every handler in order may refuse it; the first refusal wins and the pod goes
 * to phase Failed with the handler's reason and message. The CPU manager plugs in here.
 */
import type { Node, Pod } from "../../api/index.ts";
import { type DeepReadonly, errorMessage, type JsonObject } from "../../util/index.ts";
import type { KubeletSettings } from "../config/cluster-config.ts";
import type { MetricFamily } from "../internal/prometheus-text.ts";
import type { MachineTopology } from "../machine/machine-info.ts";

/** What a handler sees of one admission. */
export interface PodAdmitAttributes {
  readonly pod: DeepReadonly<Pod>;
  /** Pods admitted earlier on this node that still hold resources, in admission order. */
  readonly otherPods: readonly DeepReadonly<Pod>[];
  /** The Node as last seen (labels, taints, allocatable). */
  readonly node: DeepReadonly<Node>;
  /**
   * Re-admission of a pod that was already running before the fleet restarted. Handlers should
   * restore their state and not refuse (a refusal is logged and ignored, as upstream's
   * NotEvictPodOnKubeletRestart skips the checks that would evict a running pod).
   */
  readonly restoring: boolean;
}

/** A handler's verdict. `reason` is a CamelCase word (`OutOfcpu`), `message` a sentence. */
export type PodAdmitResult =
  | { readonly admit: true }
  | { readonly admit: false; readonly reason: string; readonly message: string };

export const admitted: PodAdmitResult = Object.freeze({ admit: true });

/**
 * One admission check. `admit` is synchronous, may keep per-node state (the CPU manager's
 * assignments) and is called once per pod admission, in the order pods are admitted.
 */
export interface PodAdmitHandler {
  readonly name: string;
  admit(attributes: PodAdmitAttributes): PodAdmitResult;
  /**
   * The pod no longer holds what `admit` gave it: it finished, was deleted, or a later handler
   * refused it. Idempotent; unknown pods are ignored.
   */
  release?(pod: DeepReadonly<Pod>): void;
  /**
   * A handler that assigns CPUs (upstream's `CPUsProvider`, read by the podresources API): the
   * container's exclusive CPUs, ascending; empty when it runs in the shared pool.
   */
  exclusiveCpus?(podUid: string, containerName: string): readonly number[];
  /** The CPUs the handler may assign (upstream's `GetAllocatableCPUs`), ascending. */
  allocatableCpus?(): readonly number[];
  /** The handler's kubelet metrics, served at `/metrics`. */
  metricFamilies?(): readonly MetricFamily[];
}

/** What a per-node handler factory knows about the node it serves. */
export interface NodeContext {
  readonly nodeName: string;
  /** The pool the node comes from; `undefined` for a node created through the API. */
  readonly pool: string | undefined;
  readonly kubelet: KubeletSettings;
  /** The machine the node reports at `/spec/`, in cAdvisor's shape. */
  readonly machine: MachineTopology;
  /** The pool's opaque `topology` object, for interpreters that know its form. */
  readonly topology: JsonObject | undefined;
}

/**
 * Builds the extra handlers of one node (the CPU manager needs per-node state). They run before
 * the resource-fit handler, as upstream's resource-allocation handler does. The CPU manager's
 * factory is `newCpuManagerAdmitHandlers` (cpumanager/admit-handlers.ts): it discovers the CPU
 * topology from `machine` as upstream's `topology.Discover` does and may throw (upstream's
 * message) for a node whose kubelet would refuse to start, such as a checkpoint of another policy.
 */
export type AdmitHandlerFactory = (node: NodeContext) => readonly PodAdmitHandler[];

/** Runs handlers in order; on a refusal, earlier handlers release the pod again. */
export function runAdmitHandlers(
  handlers: readonly PodAdmitHandler[],
  attributes: PodAdmitAttributes,
): PodAdmitResult {
  const passed: PodAdmitHandler[] = [];
  for (const handler of handlers) {
    let result: PodAdmitResult;
    try {
      result = handler.admit(attributes);
    } catch (error: unknown) {
      const message = errorMessage(error);
      result = {
        admit: false,
        reason: "UnexpectedAdmissionError",
        message: `Allocate failed due to ${message}, which is unexpected`,
      };
    }
    if (!result.admit) {
      for (const earlier of passed) earlier.release?.(attributes.pod);
      return result;
    }
    passed.push(handler);
  }
  return admitted;
}
