/** Named schemas of `meta/v1` and shared apimachinery types, with strategic-merge metadata. */
import {
  atomicList,
  bool,
  int64,
  mapList,
  obj,
  quantity,
  setList,
  str,
  stringMap,
  time,
} from "../schema/builders.ts";
import { type Definitions, ref } from "../schema/schema.ts";

const metaPrefix = "io.k8s.apimachinery.pkg.apis.meta.v1.";

/** Definition names of the shared meta types. */
export const metaDefinitionNames = {
  objectMeta: `${metaPrefix}ObjectMeta`,
  listMeta: `${metaPrefix}ListMeta`,
  ownerReference: `${metaPrefix}OwnerReference`,
  managedFieldsEntry: `${metaPrefix}ManagedFieldsEntry`,
  fieldsV1: `${metaPrefix}FieldsV1`,
  labelSelector: `${metaPrefix}LabelSelector`,
  labelSelectorRequirement: `${metaPrefix}LabelSelectorRequirement`,
  time: `${metaPrefix}Time`,
  microTime: `${metaPrefix}MicroTime`,
  condition: `${metaPrefix}Condition`,
  quantity: "io.k8s.apimachinery.pkg.api.resource.Quantity",
  intOrString: "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
} as const;

const n = metaDefinitionNames;

export const metaDefinitions: Definitions = {
  [n.objectMeta]: obj(
    {
      name: str("Name must be unique within a namespace."),
      generateName: str(
        "GenerateName is an optional prefix used by the server to generate a unique name, if Name is not provided.",
      ),
      namespace: str("Namespace defines the space within which each name must be unique."),
      selfLink: str(
        "Deprecated: selfLink is a legacy read-only field that is no longer populated.",
      ),
      uid: str("UID is the unique in time and space value for this object, set by the server."),
      resourceVersion: str(
        "An opaque value that represents the internal version of this object, used for optimistic concurrency and watches.",
      ),
      generation: int64(
        "A sequence number representing a specific generation of the desired state.",
      ),
      creationTimestamp: ref(n.time, "The time the object was created, set by the server."),
      deletionTimestamp: ref(
        n.time,
        "The time after which this resource will be deleted; set by the server when a graceful deletion is requested.",
      ),
      deletionGracePeriodSeconds: int64(
        "Number of seconds allowed for this object to gracefully terminate before it is removed from the system.",
      ),
      labels: stringMap("Map of string keys and values used to organize and categorize objects."),
      annotations: stringMap(
        "Unstructured key value map stored with a resource, set by external tools to store arbitrary metadata.",
      ),
      ownerReferences: mapList(ref(n.ownerReference), "uid", {
        description: "List of objects depended by this object, used by garbage collection.",
      }),
      finalizers: setList(
        str(),
        "Must be empty before the object is deleted from the registry; each entry identifies a responsible component.",
      ),
      managedFields: atomicList(
        ref(n.managedFieldsEntry),
        "Maps workflow-id and version to the set of fields that are managed by that workflow.",
      ),
    },
    {
      description:
        "ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.",
    },
  ),
  [n.listMeta]: obj(
    {
      selfLink: str(
        "Deprecated: selfLink is a legacy read-only field that is no longer populated.",
      ),
      resourceVersion: str("The version of this list, for watches and consistent reads."),
      continue: str(
        "Set if the user set a limit on the number of items returned; pass it to get more.",
      ),
      remainingItemCount: int64(
        "The number of subsequent items in the list not included in this response.",
      ),
    },
    {
      description:
        "ListMeta describes metadata that synthetic resources must have, including lists.",
    },
  ),
  [n.ownerReference]: obj(
    {
      apiVersion: str("API version of the referent."),
      kind: str("Kind of the referent."),
      name: str("Name of the referent."),
      uid: str("UID of the referent."),
      controller: bool("If true, this reference points to the managing controller."),
      blockOwnerDeletion: bool(
        'If true, and the owner has the "foregroundDeletion" finalizer, the owner cannot be deleted until this reference is removed.',
      ),
    },
    {
      description:
        "OwnerReference contains enough information to let you identify an owning object, in the same namespace.",
      required: ["apiVersion", "kind", "name", "uid"],
    },
  ),
  [n.managedFieldsEntry]: obj(
    {
      manager: str("An identifier of the workflow managing these fields."),
      operation: str(
        "The type of operation which lead to this entry being created: Apply or Update.",
      ),
      apiVersion: str("The version of this resource that this field set applies to."),
      time: ref(n.time, "The timestamp of when the entry was added."),
      fieldsType: str(
        'The discriminator for the different fields format; the only valid value is "FieldsV1".',
      ),
      fieldsV1: ref(
        n.fieldsV1,
        "The first JSON version format, as described in the FieldsV1 type.",
      ),
      subresource: str(
        "The name of the subresource used to update that object, or empty for the main resource.",
      ),
    },
    {
      description:
        "ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.",
    },
  ),
  [n.fieldsV1]: {
    type: "object",
    "x-kubernetes-preserve-unknown-fields": true,
    description: "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.",
  },
  [n.labelSelector]: {
    ...obj(
      {
        matchLabels: stringMap(
          "A map of {key,value} pairs, each equivalent to an `In` requirement.",
        ),
        matchExpressions: atomicList(
          ref(n.labelSelectorRequirement),
          "A list of label selector requirements; the requirements are ANDed.",
        ),
      },
      {
        description:
          "A label selector is a label query over a set of resources; an empty selector matches all objects.",
      },
    ),
    "x-kubernetes-map-type": "atomic",
  },
  [n.labelSelectorRequirement]: obj(
    {
      key: str("The label key that the selector applies to."),
      operator: str(
        "Represents a key's relationship to a set of values: In, NotIn, Exists and DoesNotExist.",
      ),
      values: atomicList(str(), "An array of string values."),
    },
    {
      description:
        "A label selector requirement is a selector that contains values, a key, and an operator that relates them.",
      required: ["key", "operator"],
    },
  ),
  [n.time]: time("Time is a wrapper around time.Time, serialized as RFC 3339."),
  [n.microTime]: {
    type: "string",
    format: "date-time",
    description: "MicroTime is a time with microsecond precision.",
  },
  [n.condition]: obj(
    {
      type: str("Type of condition in CamelCase or in foo.example.com/CamelCase."),
      status: str("Status of the condition, one of True, False, Unknown."),
      observedGeneration: int64("The .metadata.generation that the condition was set based upon."),
      lastTransitionTime: ref(
        n.time,
        "The last time the condition transitioned from one status to another.",
      ),
      reason: str(
        "A programmatic identifier indicating the reason for the condition's last transition.",
      ),
      message: str("A human readable message indicating details about the transition."),
    },
    {
      description:
        "Condition contains details for one aspect of the current state of this API Resource.",
      required: ["type", "status", "lastTransitionTime", "reason", "message"],
    },
  ),
  [n.quantity]: quantity(
    "Quantity is a fixed-point representation of a number, such as 500m, 1Gi or 2, in canonical form.",
  ),
  [n.intOrString]: {
    "x-kubernetes-int-or-string": true,
    format: "int-or-string",
    description: "IntOrString is a type that can hold an int32 or a string.",
  },
};
