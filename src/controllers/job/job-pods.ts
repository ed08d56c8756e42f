/** The pods a Job creates (upstream's manageJob pod template handling). Pure. */
import type {
  Container,
  Job,
  OwnerReference,
  Pod,
  PodTemplateSpec,
  WorkloadReference,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { podFromTemplate } from "../framework/index.ts";
import { completionIndexEnv, completionIndexKey, generateNameWithIndex } from "./indexes.ts";
import { hasTrackingFinalizer, isIndexed, jobTrackingFinalizer } from "./job-state.ts";

/** `addCompletionIndexEnvVariable`: JOB_COMPLETION_INDEX from the pod's index label. */
function addIndexEnv(container: Container): void {
  const env = container.env ?? [];
  if (env.some((v) => v.name === completionIndexEnv)) return;
  env.push({
    name: completionIndexEnv,
    valueFrom: { fieldRef: { fieldPath: `metadata.labels['${completionIndexKey}']` } },
  });
  container.env = env;
}

/**
 * A new pod of `job`: its template with the tracking finalizer, `generateName` `<job>-`; for an
 * Indexed Job also the completion index annotation and label, hostname `<job>-<index>`,
 * `generateName` `<job>-<index>-` and the JOB_COMPLETION_INDEX env var in every container.
 * With `workloadRef` (the Job's gang), the pod joins that group unless the template names one.
 */
export function newJobPod(
  job: DeepReadonly<Job>,
  controllerRef: OwnerReference,
  index: number | undefined,
  workloadRef?: WorkloadReference,
): Pod {
  const template = structuredClone(job.spec.template) as PodTemplateSpec;
  const spec = template.spec ?? { containers: [] };
  template.spec = spec;
  if (workloadRef !== undefined && spec.workloadRef === undefined)
    spec.workloadRef = { ...workloadRef };
  if (isIndexed(job)) {
    for (const c of spec.initContainers ?? []) addIndexEnv(c);
    for (const c of spec.containers) addIndexEnv(c);
  }
  const meta = template.metadata ?? {};
  template.metadata = meta;
  if (!(meta.finalizers ?? []).includes(jobTrackingFinalizer)) {
    meta.finalizers = [...(meta.finalizers ?? []), jobTrackingFinalizer];
  }
  const name = job.metadata.name ?? "";
  if (index !== undefined) {
    meta.annotations = { ...meta.annotations, [completionIndexKey]: String(index) };
    meta.labels = { ...meta.labels, [completionIndexKey]: String(index) };
    spec.hostname = `${name}-${index}`;
  }
  const pod = podFromTemplate(template, job.metadata.namespace ?? "", name, controllerRef);
  if (index !== undefined) pod.metadata.generateName = generateNameWithIndex(name, index);
  return pod;
}

/** `removeTrackingFinalizerPatch`: a strategic merge patch, or undefined without the finalizer. */
export function removeFinalizerPatch(pod: DeepReadonly<Pod>): Record<string, unknown> | undefined {
  if (!hasTrackingFinalizer(pod)) return undefined;
  return { metadata: { "$deleteFromPrimitiveList/finalizers": [jobTrackingFinalizer] } };
}
