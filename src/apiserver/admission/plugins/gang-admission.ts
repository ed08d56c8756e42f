import { forbidden, type KubeObject } from "../../../api/index.ts";
import { type AdmissionPlugin, admit, type ObjectReader } from "../admission.ts";

const podGroups = "podgroups.scheduling.k8s.io";
const workloads = "workloads.scheduling.k8s.io";

interface GroupRefs {
  readonly spec?: {
    readonly workloadRef?: { readonly name?: string; readonly podGroupName?: string };
    readonly podGroupTemplateName?: string;
  };
}

/**
 * GangAdmission, gantry's strict phase of KEP-5832 (off by default: `--gang-admission=strict`).
 * Creating a pod whose `spec.workloadRef.podGroupName` names a PodGroup that does not exist is
 * rejected with 403 Forbidden, instead of the pod waiting Pending for it. Creating a PodGroup
 * whose Workload does not exist, is terminating, or has no template named
 * `spec.podGroupTemplateName` is rejected with 403 Forbidden, as upstream 1.36's PodGroup
 * admission does.
 */
export function newGangAdmission(reader: ObjectReader): AdmissionPlugin {
  return {
    name: "GangAdmission",
    handles: (a) =>
      a.operation === "CREATE" &&
      a.subresource === "" &&
      ((a.group === "" && a.resource === "pods") ||
        (a.group === "scheduling.k8s.io" && a.resource === "podgroups")),
    async validate(a) {
      const object = a.object as (KubeObject & GroupRefs) | undefined;
      const name = object?.metadata.name ?? object?.metadata.generateName ?? "";
      if (a.resource === "pods") {
        const group = object?.spec?.workloadRef?.podGroupName ?? "";
        if (group === "") return admit;
        // Not in the cache yet: look it up live before refusing (it may be a moment old).
        const found =
          reader.get(podGroups, a.namespace, group) ??
          (await reader.getFresh(podGroups, a.namespace, group));
        if (found !== undefined) return admit;
        return {
          allowed: false,
          error: forbidden(
            { group: "", resource: "pods" },
            name,
            `pod group "${group}" does not exist in namespace "${a.namespace}": create the PodGroup before its pods`,
          ),
        };
      }
      const workloadName = object?.spec?.workloadRef?.name ?? "";
      const template = object?.spec?.podGroupTemplateName ?? "";
      const workload = (reader.get(workloads, a.namespace, workloadName) ??
        (await reader.getFresh(workloads, a.namespace, workloadName))) as
        | (KubeObject & { spec?: { podGroupTemplates?: { name?: string }[] } })
        | undefined;
      let problem: string | undefined;
      if (workload === undefined) {
        problem = `workload "${workloadName}" does not exist in namespace "${a.namespace}"`;
      } else if (workload.metadata.deletionTimestamp !== undefined) {
        problem = `workload "${workloadName}" is being deleted`;
      } else if (!(workload.spec?.podGroupTemplates ?? []).some((t) => t.name === template)) {
        problem = `workload "${workloadName}" has no pod group template "${template}"`;
      }
      if (problem === undefined) return admit;
      return {
        allowed: false,
        error: forbidden({ group: "scheduling.k8s.io", resource: "podgroups" }, name, problem),
      };
    },
  };
}
