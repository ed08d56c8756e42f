/**
 * Gang scheduling of admitted pod groups (`queueing.gangScheduleAdmittedGroups`, gantry's own
 * addition): the webhook points every pod of a group created beforehand at a standalone
 * scheduling.k8s.io PodGroup named after the group (`spec.workloadRef`, which cannot change
 * after creation); once Kueue admits the group, and before its pods are ungated, this creates
 * the scheduling Workload (one gang template, `minCount` = the group's size) and the PodGroup,
 * both owned by the Kueue Workload. Placement is then all-or-nothing as admission was. When the
 * Kueue Workload finishes they are deleted.
 */
import {
  type KueueWorkload,
  kueueApiVersion,
  type Pod,
  type PodGroup,
  type Workload as SchedulingWorkload,
  type WorkloadReference,
} from "../../api/index.ts";
import {
  type Client,
  isAlreadyExists,
  isNotFound,
  podGroupsResource,
  workloadsResource,
} from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { ignoreNotFound } from "./writes.ts";

/** The PodGroup template every admitted Kueue group instantiates. */
export const gangTemplateName = "kueue-pod-group";

/** The `spec.workloadRef` the webhook gives the pods of group `group`. */
export function gangWorkloadRef(group: string): WorkloadReference {
  return { name: group, podGroupName: group };
}

type W = DeepReadonly<KueueWorkload>;

export interface GangObjects {
  beforeUngate(workload: W, pods: readonly DeepReadonly<Pod>[]): Promise<void>;
  finished(workload: W): Promise<void>;
}

/** The scheduling Workload and PodGroup for an admitted Kueue group Workload. */
export function desiredGangObjects(workload: W): {
  readonly workload: SchedulingWorkload;
  readonly podGroup: PodGroup;
} {
  const name = workload.metadata.name ?? "";
  const namespace = workload.metadata.namespace ?? "";
  const ownerReferences = [
    {
      apiVersion: kueueApiVersion,
      kind: "Workload",
      name,
      uid: workload.metadata.uid ?? "",
      controller: true,
      blockOwnerDeletion: true,
    },
  ];
  const minCount = workload.spec.podSets.reduce((sum, p) => sum + p.count, 0);
  return {
    workload: {
      apiVersion: "scheduling.k8s.io/v1alpha1",
      kind: "Workload",
      metadata: { name, namespace, ownerReferences },
      spec: { podGroupTemplates: [{ name: gangTemplateName, policy: { gang: { minCount } } }] },
    },
    podGroup: {
      apiVersion: "scheduling.k8s.io/v1alpha1",
      kind: "PodGroup",
      metadata: { name, namespace, ownerReferences },
      spec: { workloadRef: { name }, podGroupTemplateName: gangTemplateName },
    },
  };
}

async function createIfMissing(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (error: unknown) {
    if (!isAlreadyExists(error)) throw error;
  }
}

export function newGangObjects(deps: { readonly client: Client }): GangObjects {
  return {
    async beforeUngate(workload, pods) {
      const name = workload.metadata.name ?? "";
      // Only pods the webhook pointed at the group's PodGroup are gang-scheduled.
      if (!pods.some((p) => p.spec.workloadRef?.podGroupName === name)) return;
      const desired = desiredGangObjects(workload);
      await createIfMissing(deps.client.create(workloadsResource, desired.workload));
      await createIfMissing(deps.client.create(podGroupsResource, desired.podGroup));
    },
    async finished(workload) {
      const name = workload.metadata.name ?? "";
      const namespace = workload.metadata.namespace ?? "";
      for (const resource of [podGroupsResource, workloadsResource]) {
        let owned = false;
        try {
          const object = await deps.client.get(resource, namespace, name);
          owned = (object.metadata.ownerReferences ?? []).some(
            (o) => o.uid === workload.metadata.uid,
          );
        } catch (error: unknown) {
          if (!isNotFound(error)) throw error;
        }
        // Only what this Workload owns: a Job's gang of the same name is left alone.
        if (owned) await ignoreNotFound(deps.client.delete(resource, namespace, name));
      }
    },
  };
}
