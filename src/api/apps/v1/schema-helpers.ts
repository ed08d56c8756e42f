/**
 * Definition names and schema builders shared by the schema files of every group in this area
 * (apps, batch, policy, coordination, scheduling, apiextensions, autoscaling).
 */
import { obj, str, time } from "../../schema/builders.ts";
import { ref, type Schema } from "../../schema/schema.ts";

/** `io.k8s.api.apps.v1.<name>`. */
export function appsName(name: string): string {
  return `io.k8s.api.apps.v1.${name}`;
}

export const objectMetaName = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
export const listMetaName = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
export const labelSelectorName = "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector";
export const conditionName = "io.k8s.apimachinery.pkg.apis.meta.v1.Condition";
export const podTemplateSpecName = "io.k8s.api.core.v1.PodTemplateSpec";

/** The `apps/v1` condition (with `lastUpdateTime`) under a kind-specific name. */
export function appsCondition(kind: string, withUpdateTime: boolean): Schema {
  const properties: Record<string, Schema> = {
    type: str(`Type of ${kind} condition.`),
    status: str("Status of the condition, one of True, False, Unknown."),
    lastTransitionTime: time("Last time the condition transitioned from one status to another."),
    reason: str("The reason for the condition's last transition."),
    message: str("A human readable message indicating details about the transition."),
  };
  if (withUpdateTime)
    properties["lastUpdateTime"] = time("The last time this condition was updated.");
  return obj(properties, {
    description: `${kind}Condition describes the state of a ${kind.toLowerCase()} at a certain point.`,
    required: ["type", "status"],
  });
}

/** `metadata`, the standard reference every kind carries. */
export function metadataRef(): Schema {
  return ref(
    objectMetaName,
    "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
  );
}

/** The apiVersion/kind pair every kind carries. */
export function typeMetaProperties(): Record<string, Schema> {
  return {
    apiVersion: str(
      "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.",
    ),
    kind: str(
      "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.",
    ),
  };
}

/** A top-level kind schema with its group/version/kind. */
export function kindSchema(
  gvk: { group: string; version: string; kind: string },
  description: string,
  properties: Record<string, Schema>,
  required?: string[],
): Schema {
  const schema = obj(
    { ...typeMetaProperties(), metadata: metadataRef(), ...properties },
    required === undefined ? { description } : { description, required },
  );
  schema["x-kubernetes-group-version-kind"] = [gvk];
  return schema;
}

/** A `<Kind>List` schema. */
export function listSchema(
  gvk: { group: string; version: string; kind: string },
  itemName: string,
): Schema {
  const schema = obj(
    {
      ...typeMetaProperties(),
      metadata: ref(listMetaName, "Standard list metadata."),
      items: {
        type: "array",
        items: ref(itemName),
        description: `Items is the list of ${gvk.kind.replace(/List$/, "")}s.`,
      },
    },
    {
      description: `${gvk.kind} is a collection of ${gvk.kind.replace(/List$/, "")}s.`,
      required: ["items"],
    },
  );
  schema["x-kubernetes-group-version-kind"] = [gvk];
  return schema;
}
