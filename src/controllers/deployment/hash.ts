/** The pod-template-hash: how a Deployment names its ReplicaSets and labels their pods. */

/** `apps.DefaultDeploymentUniqueLabelKey`. */
export const podTemplateHashLabel = "pod-template-hash";
