/**
 * The label a DaemonSet's revision hash (`controller.ComputeHash`, in controllers/framework) goes
 * under on its pods and revisions, and the pod template daemon pods are created from
 * (`CreatePodTemplate`).
 */
import type { DaemonSet, Pod, PodTemplateSpec } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { addDaemonPodTolerations } from "./placement.ts";

/** `apps.DefaultDaemonSetUniqueLabelKey`. */
export const revisionHashLabel = "controller-revision-hash";
/** `extensions.DaemonSetTemplateGenerationKey`: the pre-1.7 way to tell revisions apart. */
export const templateGenerationLabel = "pod-template-generation";
/** `apps.DeprecatedTemplateGeneration`, set on DaemonSets by the API server upstream. */
export const templateGenerationAnnotation = "deprecated.daemonset.template.generation";

/** `GetTemplateGeneration`: the deprecated annotation as an integer, if present and valid. */
export function templateGeneration(ds: DeepReadonly<DaemonSet>): string | undefined {
  const value = ds.metadata.annotations?.[templateGenerationAnnotation];
  return value !== undefined && /^-?[0-9]+$/.test(value) ? String(BigInt(value)) : undefined;
}

/** `IsPodUpdated`: the pod carries the current hash (or template generation). */
export function isPodUpdated(
  pod: DeepReadonly<Pod>,
  hash: string,
  generation: string | undefined,
): boolean {
  const labels = pod.metadata.labels ?? {};
  const byGeneration = generation !== undefined && labels[templateGenerationLabel] === generation;
  return (hash !== "" && labels[revisionHashLabel] === hash) || byGeneration;
}

/** `CreatePodTemplate`: the template with the daemon tolerations and the revision labels. */
export function daemonPodTemplate(ds: DeepReadonly<DaemonSet>, hash: string): PodTemplateSpec {
  const template = structuredClone(ds.spec.template) as PodTemplateSpec;
  template.spec ??= { containers: [] };
  addDaemonPodTolerations(template.spec);
  const labels = { ...template.metadata?.labels };
  const generation = templateGeneration(ds);
  if (generation !== undefined) labels[templateGenerationLabel] = generation;
  if (hash !== "") labels[revisionHashLabel] = hash;
  template.metadata = { ...template.metadata, labels };
  return template;
}
