/**
 * Defaulting of PodSpec and everything in it, as upstream's `pkg/apis/core/v1/defaults.go`
 * (plus the quantity canonicalization upstream's decoder does). Every function mutates in place
 * and is idempotent.
 */
import { canonicalQuantity } from "../../resource/quantity.ts";
import { volumeSourceFields } from "./pod-spec-validation.ts";
import type {
  Container,
  PodSpec,
  PodTemplateSpec,
  Probe,
  ProbeHandler,
  PullPolicy,
  ResourceList,
  Volume,
} from "./pod-template.ts";

export const defaultTerminationGracePeriodSeconds = 30;
export const defaultSchedulerName = "default-scheduler";
export const terminationMessagePathDefault = "/dev/termination-log";
/** 0644, the default file mode of secret, configMap, downwardAPI and projected volumes. */
export const defaultVolumeMode = 0o644;

/** `Always` for an image tagged `latest` or not tagged at all (and no digest), else `IfNotPresent`. */
export function defaultPullPolicy(image: string | undefined): PullPolicy {
  const ref = image ?? "";
  if (ref === "") return "IfNotPresent";
  if (ref.includes("@")) {
    const beforeDigest = ref.slice(0, ref.indexOf("@"));
    return tagOf(beforeDigest) === "latest" ? "Always" : "IfNotPresent";
  }
  const tag = tagOf(ref);
  return tag === undefined || tag === "latest" ? "Always" : "IfNotPresent";
}

function tagOf(ref: string): string | undefined {
  const lastSlash = ref.lastIndexOf("/");
  const colon = ref.indexOf(":", lastSlash + 1);
  return colon < 0 ? undefined : ref.slice(colon + 1);
}

/** Rewrites parsable quantities (including JSON numbers) into canonical strings; leaves bad ones. */
export function canonicalizeResourceList(list: ResourceList | undefined): void {
  if (list === undefined) return;
  for (const [name, value] of Object.entries(list)) {
    try {
      list[name] = canonicalQuantity(value);
    } catch {
      // Left as sent: validation reports it with its field path.
    }
  }
}

function defaultHandler(handler: ProbeHandler | undefined): void {
  if (handler?.httpGet === undefined) return;
  handler.httpGet.path ??= "/";
  handler.httpGet.scheme ??= "HTTP";
}

function defaultProbe(probe: Probe | undefined): void {
  if (probe === undefined) return;
  probe.timeoutSeconds ??= 1;
  probe.periodSeconds ??= 10;
  probe.successThreshold ??= 1;
  probe.failureThreshold ??= 3;
  defaultHandler(probe);
}

/** `SetDefaults_Container` plus its ports, probes, env field refs and quantities. */
export function applyContainerDefaults(c: Container): void {
  if ((c.imagePullPolicy ?? "") === "") c.imagePullPolicy = defaultPullPolicy(c.image);
  if ((c.terminationMessagePath ?? "") === "")
    c.terminationMessagePath = terminationMessagePathDefault;
  if ((c.terminationMessagePolicy ?? "") === "") c.terminationMessagePolicy = "File";
  for (const port of c.ports ?? []) {
    if ((port.protocol ?? "") === "") port.protocol = "TCP";
  }
  for (const ev of c.env ?? []) {
    const ref = ev.valueFrom?.fieldRef;
    if (ref !== undefined && (ref.apiVersion ?? "") === "") ref.apiVersion = "v1";
  }
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  defaultHandler(c.lifecycle?.postStart);
  defaultHandler(c.lifecycle?.preStop);
  canonicalizeResourceList(c.resources?.limits);
  canonicalizeResourceList(c.resources?.requests);
}

/** `SetDefaults_Volume` and the per-source defaulters. */
export function applyVolumeDefaults(vol: Volume): void {
  if (!volumeSourceFields.some((f) => vol[f] !== undefined && vol[f] !== null)) vol.emptyDir = {};
  if (vol.secret !== undefined) vol.secret.defaultMode ??= defaultVolumeMode;
  if (vol.configMap !== undefined) vol.configMap.defaultMode ??= defaultVolumeMode;
  if (vol.downwardAPI !== undefined) {
    vol.downwardAPI.defaultMode ??= defaultVolumeMode;
    for (const item of vol.downwardAPI.items ?? []) {
      if (item.fieldRef !== undefined && (item.fieldRef.apiVersion ?? "") === "") {
        item.fieldRef.apiVersion = "v1";
      }
    }
  }
  if (vol.projected !== undefined) {
    vol.projected.defaultMode ??= defaultVolumeMode;
    for (const source of vol.projected.sources ?? []) {
      if (source.serviceAccountToken !== undefined) {
        source.serviceAccountToken.expirationSeconds ??= 3600;
      }
      for (const item of source.downwardAPI?.items ?? []) {
        if (item.fieldRef !== undefined && (item.fieldRef.apiVersion ?? "") === "") {
          item.fieldRef.apiVersion = "v1";
        }
      }
    }
  }
  if (vol.hostPath !== undefined) vol.hostPath.type ??= "";
  if (vol.emptyDir?.sizeLimit !== undefined) {
    try {
      vol.emptyDir.sizeLimit = canonicalQuantity(vol.emptyDir.sizeLimit);
    } catch {
      // Reported by validation.
    }
  }
}

/**
 * `SetDefaults_PodSpec` and everything it contains: what a pod template gets. Pods get more
 * (`applyPodDefaults` in pod.ts).
 */
export function applyPodSpecDefaults(spec: PodSpec): void {
  if ((spec.dnsPolicy ?? "") === "") spec.dnsPolicy = "ClusterFirst";
  if ((spec.restartPolicy ?? "") === "") spec.restartPolicy = "Always";
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= defaultTerminationGracePeriodSeconds;
  if ((spec.schedulerName ?? "") === "") spec.schedulerName = defaultSchedulerName;
  // v1 conversion keeps the deprecated alias and the real field in step.
  if ((spec.serviceAccountName ?? "") === "" && (spec.serviceAccount ?? "") !== "") {
    spec.serviceAccountName = spec.serviceAccount ?? "";
  }
  if ((spec.serviceAccountName ?? "") !== "") spec.serviceAccount = spec.serviceAccountName ?? "";
  for (const c of spec.initContainers ?? []) applyContainerDefaults(c);
  for (const c of spec.containers ?? []) applyContainerDefaults(c);
  for (const c of spec.ephemeralContainers ?? []) applyContainerDefaults(c);
  for (const v of spec.volumes ?? []) applyVolumeDefaults(v);
  canonicalizeResourceList(spec.overhead);
  canonicalizeResourceList(spec.resources?.limits);
  canonicalizeResourceList(spec.resources?.requests);
}

/** Defaults a pod template's spec, if it has one. */
export function applyPodTemplateSpecDefaults(template: PodTemplateSpec | undefined): void {
  if (template?.spec !== undefined) applyPodSpecDefaults(template.spec);
}
