/**
 * Descriptions controller-gen writes into every CRD: the TypeMeta fields and metav1.Condition's
 * fields, keyed by field path (see describe.ts).
 */
import { type Descriptions, lines } from "./describe.ts";

/** The root's apiVersion and kind. */
export const typeMeta: Descriptions = {
  apiVersion: lines(
    "APIVersion defines the versioned schema of this representation of an object.",
    "Servers should convert recognized schemas to the latest internal value, and",
    "may reject unrecognized values.",
    "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
  ),
  kind: lines(
    "Kind is a string value representing the REST resource this object represents.",
    "Servers may infer this from the endpoint the client submits requests to.",
    "Cannot be updated.",
    "In CamelCase.",
    "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
  ),
};

/** metav1.Condition's fields, relative to a conditions list. */
export const condition: Descriptions = {
  lastTransitionTime: lines(
    "lastTransitionTime is the last time the condition transitioned from one status to another.",
    "This should be when the underlying condition changed.  If that is not known, then using the time when the API field changed is acceptable.",
  ),
  message: lines(
    "message is a human readable message indicating details about the transition.",
    "This may be an empty string.",
  ),
  observedGeneration: lines(
    "observedGeneration represents the .metadata.generation that the condition was set based upon.",
    "For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date",
    "with respect to the current state of the instance.",
  ),
  reason: lines(
    "reason contains a programmatic identifier indicating the reason for the condition's last transition.",
    "Producers of specific condition types may define expected values and meanings for this field,",
    "and whether the values are considered a guaranteed API.",
    "The value should be a CamelCase string.",
    "This field may not be empty.",
  ),
  status: "status of the condition, one of True, False, Unknown.",
  type: "type of condition in CamelCase or in foo.example.com/CamelCase.",
};
