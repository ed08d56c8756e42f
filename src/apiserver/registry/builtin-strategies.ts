import type { DeleteOptions, KubeObject } from "../../api/index.ts";
import { rfc3339 } from "../../util/index.ts";
import type { Strategy } from "./generic/strategy.ts";
import { namespaceStrategy } from "./namespace-strategy.ts";

interface PodLike {
  spec?: { nodeName?: string; terminationGracePeriodSeconds?: number };
  status?: { phase?: string };
}

/** Pods: graceful deletion, binding and eviction, and a Pending status on create. */
export function podStrategy(
  qosClassOf: (pod: KubeObject) => string,
  defaultTolerations?: (pod: KubeObject) => unknown[],
): Strategy {
  return {
    gracefulDeletion: true,
    returnDeletedObject: true,
    subresources: ["attach", "binding", "eviction", "exec", "log", "portforward"],
    prepareForCreate(pod) {
      pod["status"] = { phase: "Pending", qosClass: qosClassOf(pod) };
      // DefaultTolerationSeconds: tolerate not-ready and unreachable nodes for 300 s.
      if (defaultTolerations !== undefined) {
        (pod["spec"] as { tolerations?: unknown[] }).tolerations = defaultTolerations(pod);
      }
    },
    prepareForStatusUpdate(pod, old) {
      // As upstream's podStatusStrategy: the QoS class is set at creation and immutable; a status
      // written without one (old kubelets dropped it) keeps the stored one.
      const status = (pod["status"] ?? {}) as { qosClass?: string };
      const before = (old["status"] as { qosClass?: string } | undefined)?.qosClass;
      if ((status.qosClass ?? "") === "" && before !== undefined) {
        pod["status"] = { ...status, qosClass: before };
      }
    },
    gracePeriodSeconds(obj: KubeObject, options: DeleteOptions) {
      const pod = obj as PodLike;
      // Unscheduled and finished pods have nothing to stop: they go at once.
      if ((pod.spec?.nodeName ?? "") === "") return 0;
      const phase = pod.status?.phase;
      if (phase === "Succeeded" || phase === "Failed") return 0;
      return options.gracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    },
  };
}

/**
 * PersistentVolumes: upstream's strategy (PersistentVolumeLastPhaseTransitionTime, GA in 1.31)
 * stamps the Pending phase of a new volume with the time of its creation.
 */
export const persistentVolumeStrategy: Strategy = {
  prepareForCreate(pv, context) {
    const status = (pv["status"] ?? {}) as Record<string, unknown>;
    pv["status"] = { ...status, lastPhaseTransitionTime: rfc3339(context.clock.now()) };
  },
};

/** Strategies for built-in resources that need more than the generic behaviour. */
export function builtInStrategies(deps: {
  qosClassOf: (pod: KubeObject) => string;
  defaultTolerations?: (pod: KubeObject) => unknown[];
  generateJobSelector?: (job: KubeObject, uid: string) => void;
}): ReadonlyMap<string, Strategy> {
  const job: Strategy =
    deps.generateJobSelector === undefined
      ? {}
      : {
          prepareForCreate(obj) {
            deps.generateJobSelector?.(obj, obj.metadata.uid ?? "");
          },
        };
  return new Map<string, Strategy>([
    ["/pods", podStrategy(deps.qosClassOf, deps.defaultTolerations)],
    ["/namespaces", namespaceStrategy],
    ["/nodes", { keepsStatusOnCreate: true, subresources: ["proxy"] }],
    ["/serviceaccounts", { subresources: ["token"] }],
    ["/persistentvolumes", persistentVolumeStrategy],
    ["batch/jobs", job],
  ]);
}
