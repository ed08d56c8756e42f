import { forbidden, type KubeObject } from "../../../api/index.ts";
import { type AdmissionPlugin, admit, type ObjectReader } from "../admission.ts";

const segment = "priorityclasses.scheduling.k8s.io";

/**
 * Priority: resolves a pod's `priorityClassName` to `priority` and `preemptionPolicy`, using
 * the global default class when none is named. An unknown class is rejected as upstream does.
 */
export function newPriority(reader: ObjectReader): AdmissionPlugin {
  return {
    name: "Priority",
    handles: (a) =>
      a.operation === "CREATE" && a.group === "" && a.resource === "pods" && a.subresource === "",
    async mutate(a) {
      const pod = a.object as KubeObject;
      const spec = (pod["spec"] ?? {}) as {
        priorityClassName?: string;
        priority?: number;
        preemptionPolicy?: string;
      };
      let cls: Record<string, unknown> | undefined;
      if ((spec.priorityClassName ?? "") === "") {
        cls = reader.list(segment, "").find((c) => c["globalDefault"] === true);
        if (cls === undefined) {
          spec.priority ??= 0;
          return admit;
        }
        spec.priorityClassName = (cls["metadata"] as { name: string }).name;
      } else {
        const name = spec.priorityClassName ?? "";
        cls = reader.get(segment, "", name) ?? (await reader.getFresh(segment, "", name));
        if (cls === undefined) {
          return {
            allowed: false,
            error: forbidden(
              { group: "", resource: "pods" },
              pod.metadata.name ?? pod.metadata.generateName ?? "",
              `no PriorityClass with name ${spec.priorityClassName ?? ""} was found`,
            ),
          };
        }
      }
      spec.priority = typeof cls["value"] === "number" ? cls["value"] : 0;
      if (typeof cls["preemptionPolicy"] === "string")
        spec.preemptionPolicy = cls["preemptionPolicy"];
      return admit;
    },
  };
}
