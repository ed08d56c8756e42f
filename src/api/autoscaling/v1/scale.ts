/**
 * `autoscaling/v1` Scale: the body of every `/scale` subresource. The API server builds it from
 * the parent object; it is never stored.
 */

import { kindSchema } from "../../apps/v1/schema-helpers.ts";
import type { ObjectMeta } from "../../meta/types.ts";
import { int32, obj, str } from "../../schema/builders.ts";
import { type Definitions, ref } from "../../schema/schema.ts";

export interface ScaleSpec {
  replicas?: number;
}

export interface ScaleStatus {
  replicas: number;
  /** A label selector in string form (`app=web`), as `kubectl get` and the HPA use it. */
  selector?: string;
}

export interface Scale {
  apiVersion?: "autoscaling/v1";
  kind?: "Scale";
  metadata: ObjectMeta;
  spec?: ScaleSpec;
  status?: ScaleStatus;
}

/** `io.k8s.api.autoscaling.v1.<name>`. */
export function autoscalingName(name: string): string {
  return `io.k8s.api.autoscaling.v1.${name}`;
}

export const autoscalingV1Definitions: Definitions = {
  [autoscalingName("Scale")]: kindSchema(
    { group: "autoscaling", version: "v1", kind: "Scale" },
    "Scale represents a scaling request for a resource.",
    {
      spec: ref(
        autoscalingName("ScaleSpec"),
        "spec defines the behavior of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status.",
      ),
      status: ref(
        autoscalingName("ScaleStatus"),
        "status is the current status of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status. Read-only.",
      ),
    },
  ),
  [autoscalingName("ScaleSpec")]: obj(
    { replicas: int32("replicas is the desired number of instances for the scaled object.") },
    { description: "ScaleSpec describes the attributes of a scale subresource." },
  ),
  [autoscalingName("ScaleStatus")]: obj(
    {
      replicas: int32("replicas is the actual number of observed instances of the scaled object."),
      selector: str(
        "selector is the label query over pods that should match the replicas count. This is same as the label selector but in the string format to avoid introspection by clients.",
      ),
    },
    {
      description: "ScaleStatus represents the current status of a scale subresource.",
      required: ["replicas"],
    },
  ),
};
