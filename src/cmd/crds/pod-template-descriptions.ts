/**
 * Descriptions for the part of a PodTemplateSpec gantry's CRD schemas declare (the rest is kept
 * as sent). `metadata` and `spec` carry Kubernetes' PodTemplateSpec text, as upstream CRDs do;
 * upstream's embedded metadata fields have none, so theirs are the first sentence of the
 * ObjectMeta field docs, and `spec.containers` is PodSpec's.
 */
import { type Descriptions, lines } from "./describe.ts";

/** Keyed relative to the template field ("metadata.labels", …). */
export const podTemplateDescriptions: Descriptions = {
  metadata: lines(
    "Standard object's metadata.",
    "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
  ),
  "metadata.annotations":
    "Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata.",
  "metadata.finalizers": "Must be empty before the object is deleted from the registry.",
  "metadata.labels":
    "Map of string keys and values that can be used to organize and categorize (scope and select) objects.",
  "metadata.name": "Name must be unique within a namespace.",
  "metadata.namespace": "Namespace defines the space within which each name must be unique.",
  spec: lines(
    "Specification of the desired behavior of the pod.",
    "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
  ),
  "spec.containers": lines(
    "List of containers belonging to the pod.",
    "Containers cannot currently be added or removed.",
    "There must be at least one container in a Pod.",
    "Cannot be updated.",
  ),
};
