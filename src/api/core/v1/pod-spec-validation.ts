/** `ValidatePodSpec` and `ValidatePodTemplateSpec` (`pkg/apis/core/validation`). */
import {
  duplicate,
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import type { FieldPath } from "../../meta/field-path.ts";
import { validateAnnotations, validateLabels } from "../../validation/meta.ts";
import { inclusiveRangeError, isQualifiedName } from "../../validation/names.ts";
import {
  validateContainers,
  validateDns1123LabelAt,
  validateDns1123SubdomainAt,
  validateInitContainers,
} from "./container-validation.ts";
import type { PodSpec, PodTemplateSpec, Volume } from "./pod-template.ts";
import { parseQuantityField, validateResourceQuantityValue } from "./resource-validation.ts";
import {
  validateAffinity,
  validateSchedulingGates,
  validateTolerations,
  validateTopologySpreadConstraints,
  validateWorkloadReference,
} from "./scheduling-validation.ts";

const maxInt32 = 2147483647;

/** Every volume source field upstream knows, in the order it checks them. */
export const volumeSourceFields = [
  "hostPath",
  "emptyDir",
  "gitRepo",
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "secret",
  "nfs",
  "iscsi",
  "glusterfs",
  "flocker",
  "persistentVolumeClaim",
  "rbd",
  "flexVolume",
  "cinder",
  "cephfs",
  "quobyte",
  "downwardAPI",
  "fc",
  "azureFile",
  "vsphereVolume",
  "photonPersistentDisk",
  "portworxVolume",
  "azureDisk",
  "csi",
  "configMap",
  "scaleIO",
  "storageos",
  "projected",
  "ephemeral",
  "image",
] as const;

const fileModeError = "must be a number between 0 and 0777 (octal), both inclusive";

function validateMode(mode: number | undefined, path: FieldPath): FieldErrorList {
  return mode !== undefined && (mode < 0 || mode > 0o777)
    ? [invalid(path, mode, fileModeError)]
    : [];
}

function validateVolumeSource(vol: Volume, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  let count = 0;
  for (const field of volumeSourceFields) {
    if (vol[field] === undefined || vol[field] === null) continue;
    if (count > 0) {
      errs.push(forbiddenField(path.child(field), "may not specify more than 1 volume type"));
      continue;
    }
    count++;
    const p = path.child(field);
    switch (field) {
      case "hostPath":
        if ((vol.hostPath?.path ?? "") === "") errs.push(required(p.child("path")));
        break;
      case "secret":
        if ((vol.secret?.secretName ?? "") === "") errs.push(required(p.child("secretName")));
        errs.push(...validateMode(vol.secret?.defaultMode, p.child("defaultMode")));
        break;
      case "configMap":
        if ((vol.configMap?.name ?? "") === "") errs.push(required(p.child("name")));
        errs.push(...validateMode(vol.configMap?.defaultMode, p.child("defaultMode")));
        break;
      case "persistentVolumeClaim":
        if ((vol.persistentVolumeClaim?.claimName ?? "") === "") {
          errs.push(required(p.child("claimName")));
        }
        break;
      case "downwardAPI":
        errs.push(...validateMode(vol.downwardAPI?.defaultMode, p.child("defaultMode")));
        break;
      case "projected":
        errs.push(...validateMode(vol.projected?.defaultMode, p.child("defaultMode")));
        break;
      case "emptyDir": {
        const limit = vol.emptyDir?.sizeLimit;
        if (limit !== undefined) {
          const q = parseQuantityField(limit, p.child("sizeLimit"), errs);
          if (q !== undefined && q.unscaled < 0n) {
            errs.push(invalid(p.child("sizeLimit"), limit, "must be greater than or equal to 0"));
          }
        }
        break;
      }
      default:
        break;
    }
  }
  if (count === 0) errs.push(required(path, "must specify a volume type"));
  return errs;
}

/** `ValidateVolumes`: DNS-label names, unique, exactly one source each. Returns the valid names. */
export function validateVolumes(
  volumes: readonly Volume[] | undefined,
  path: FieldPath,
): { errors: FieldErrorList; names: Set<string> } {
  const errors: FieldErrorList = [];
  const names = new Set<string>();
  (volumes ?? []).forEach((vol, i) => {
    const p = path.index(i);
    const el = validateVolumeSource(vol, p);
    const name = vol.name ?? "";
    if (name === "") el.push(required(p.child("name")));
    else el.push(...validateDns1123LabelAt(name, p.child("name")));
    if (names.has(name)) el.push(duplicate(p.child("name"), name));
    if (el.length === 0) names.add(name);
    else errors.push(...el);
  });
  return { errors, names };
}

function validateEnumRequired(
  value: string | undefined,
  allowed: readonly string[],
  path: FieldPath,
): FieldErrorList {
  if ((value ?? "") === "") return [required(path)];
  return allowed.includes(value ?? "") ? [] : [notSupported(path, value, allowed)];
}

/** `ValidatePodSpec`, for pods and pod templates alike (after defaulting). */
export function validatePodSpec(spec: PodSpec, path: FieldPath): FieldErrorList {
  const { errors: errs, names: volumes } = validateVolumes(spec.volumes, path.child("volumes"));
  errs.push(...validateContainers(spec.containers, volumes, path.child("containers")));
  errs.push(
    ...validateInitContainers(
      spec.initContainers,
      spec.containers,
      volumes,
      path.child("initContainers"),
    ),
  );
  errs.push(
    ...validateEnumRequired(
      spec.restartPolicy,
      ["Always", "OnFailure", "Never"],
      path.child("restartPolicy"),
    ),
  );
  errs.push(
    ...validateEnumRequired(
      spec.dnsPolicy,
      ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
      path.child("dnsPolicy"),
    ),
  );
  errs.push(...validateLabels(spec.nodeSelector, path.child("nodeSelector")));
  (spec.imagePullSecrets ?? []).forEach((s, i) => {
    if ((s.name ?? "") === "")
      errs.push(required(path.child("imagePullSecrets").index(i).child("name")));
  });
  errs.push(...validateAffinity(spec.affinity, path.child("affinity")));
  (spec.readinessGates ?? []).forEach((g, i) => {
    const p = path.child("readinessGates").index(i).child("conditionType");
    for (const msg of isQualifiedName(g.conditionType ?? ""))
      errs.push(invalid(p, g.conditionType, msg));
  });
  errs.push(...validateSchedulingGates(spec.schedulingGates, path.child("schedulingGates")));
  errs.push(
    ...validateTopologySpreadConstraints(
      spec.topologySpreadConstraints,
      path.child("topologySpreadConstraints"),
    ),
  );
  if ((spec.serviceAccountName ?? "") !== "") {
    errs.push(
      ...validateDns1123SubdomainAt(
        spec.serviceAccountName ?? "",
        path.child("serviceAccountName"),
      ),
    );
  }
  if ((spec.nodeName ?? "") !== "") {
    errs.push(...validateDns1123SubdomainAt(spec.nodeName ?? "", path.child("nodeName")));
  }
  const deadline = spec.activeDeadlineSeconds;
  if (deadline !== undefined && (deadline < 1 || deadline > maxInt32)) {
    errs.push(
      invalid(path.child("activeDeadlineSeconds"), deadline, inclusiveRangeError(1, maxInt32)),
    );
  }
  if ((spec.hostname ?? "") !== "") {
    errs.push(...validateDns1123LabelAt(spec.hostname ?? "", path.child("hostname")));
  }
  if ((spec.subdomain ?? "") !== "") {
    errs.push(...validateDns1123LabelAt(spec.subdomain ?? "", path.child("subdomain")));
  }
  errs.push(...validateTolerations(spec.tolerations, path.child("tolerations")));
  if ((spec.priorityClassName ?? "") !== "") {
    errs.push(
      ...validateDns1123SubdomainAt(spec.priorityClassName ?? "", path.child("priorityClassName")),
    );
  }
  if ((spec.schedulerName ?? "") !== "") {
    errs.push(...validateDns1123SubdomainAt(spec.schedulerName ?? "", path.child("schedulerName")));
  }
  if (spec.preemptionPolicy !== undefined) {
    const allowed = ["PreemptLowerPriority", "Never"];
    if (!allowed.includes(spec.preemptionPolicy)) {
      errs.push(notSupported(path.child("preemptionPolicy"), spec.preemptionPolicy, allowed));
    }
  }
  for (const [name, text] of Object.entries(spec.overhead ?? {})) {
    const p = path.child("overhead").key(name);
    const q = parseQuantityField(text, p, errs);
    if (q !== undefined) errs.push(...validateResourceQuantityValue(name, q, p));
  }
  errs.push(...validateWorkloadReference(spec.workloadRef, path.child("workloadRef")));
  return errs;
}

/** `ValidatePodTemplateSpec`: labels, annotations and spec; no ephemeral containers. */
export function validatePodTemplateSpec(
  template: PodTemplateSpec,
  path: FieldPath,
): FieldErrorList {
  const errs = validateLabels(template.metadata?.labels, path.child("labels"));
  errs.push(...validateAnnotations(template.metadata?.annotations, path.child("annotations")));
  errs.push(...validatePodSpec(template.spec ?? { containers: [] }, path.child("spec")));
  if ((template.spec?.ephemeralContainers ?? []).length > 0) {
    errs.push(
      forbiddenField(
        path.child("spec", "ephemeralContainers"),
        "ephemeral containers not allowed in pod template",
      ),
    );
  }
  return errs;
}
