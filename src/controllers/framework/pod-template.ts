/** Pods from templates, as workload controllers create them (`GetPodFromTemplate`). */
import type { OwnerReference, Pod, PodTemplateSpec } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/**
 * A new pod from `template` for the controller named `ownerName` in `namespace`: the template's
 * labels, annotations and finalizers, `generateName` `<owner>-` (the API server appends five
 * random characters), the controller reference, and a copy of the template's spec.
 */
export function podFromTemplate(
  template: DeepReadonly<PodTemplateSpec>,
  namespace: string,
  ownerName: string,
  controllerRef: OwnerReference,
): Pod {
  const meta = template.metadata;
  const pod: Pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { generateName: `${ownerName}-`, namespace, ownerReferences: [controllerRef] },
    spec: structuredClone(template.spec) as Pod["spec"],
  };
  if (meta?.labels !== undefined) pod.metadata.labels = { ...meta.labels };
  if (meta?.annotations !== undefined) pod.metadata.annotations = { ...meta.annotations };
  if (meta?.finalizers !== undefined) pod.metadata.finalizers = [...meta.finalizers];
  return pod;
}
