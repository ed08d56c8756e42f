/** Named schema definitions of `scheduling.k8s.io/v1` PriorityClass. */

import { kindSchema, listSchema } from "../../apps/v1/schema-helpers.ts";
import { bool, int32, str } from "../../schema/builders.ts";
import type { Definitions } from "../../schema/schema.ts";

/** `io.k8s.api.scheduling.v1.<name>`. */
export function schedulingV1Name(name: string): string {
  return `io.k8s.api.scheduling.v1.${name}`;
}

const gv = { group: "scheduling.k8s.io", version: "v1" };

export const schedulingV1Definitions: Definitions = {
  [schedulingV1Name("PriorityClass")]: kindSchema(
    { ...gv, kind: "PriorityClass" },
    "PriorityClass defines mapping from a priority class name to the priority integer value. The value can be any valid integer.",
    {
      value: int32(
        "value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.",
      ),
      globalDefault: bool(
        "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`.",
      ),
      description: str(
        "description is an arbitrary string that usually provides guidelines on when this priority class should be used.",
      ),
      preemptionPolicy: str(
        "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.",
        { enum: ["Never", "PreemptLowerPriority"] },
      ),
    },
    ["value"],
  ),
  [schedulingV1Name("PriorityClassList")]: listSchema(
    { ...gv, kind: "PriorityClassList" },
    schedulingV1Name("PriorityClass"),
  ),
};
