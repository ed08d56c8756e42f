/** `ValidatePodCreate`, `ValidatePodUpdate` and `ValidatePodStatusUpdate`. */
import { type FieldErrorList, forbiddenField, invalid, required } from "../../meta/field-errors.ts";
import { FieldPath } from "../../meta/field-path.ts";
import { semanticEqual } from "../../validation/equality.ts";
import {
  validateImmutableField,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import { inclusiveRangeError, isDns1123Subdomain } from "../../validation/names.ts";
import { validatePodSpec } from "./pod-spec-validation.ts";
import type { Container, PodSpec, Toleration } from "./pod-template.ts";
import type { Pod } from "./pod-types.ts";
import {
  validateOnlyDeletedSchedulingGates,
  validateTolerations,
} from "./scheduling-validation.ts";

const maxInt32 = 2147483647;

/** The fields a pod update may change, as upstream lists them in its error. */
export const updatablePodSpecFields = [
  "`spec.containers[*].image`",
  "`spec.initContainers[*].image`",
  "`spec.activeDeadlineSeconds`",
  "`spec.tolerations` (only additions to existing tolerations)",
  "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
];

const metaPath = FieldPath.of("metadata");
const specPath = FieldPath.of("spec");

/** `ValidatePodCreate`. */
export function validatePodCreate(pod: Pod): FieldErrorList {
  const errs = validateObjectMeta(pod.metadata, { namespaced: true }, metaPath);
  errs.push(...validatePodSpec(pod.spec ?? { containers: [] }, specPath));
  if ((pod.spec?.ephemeralContainers ?? []).length > 0) {
    errs.push(forbiddenField(specPath.child("ephemeralContainers"), "cannot be set on create"));
  }
  if ((pod.spec?.nodeName ?? "") !== "" && (pod.spec?.schedulingGates ?? []).length > 0) {
    errs.push(
      forbiddenField(
        specPath.child("nodeName"),
        "cannot be set until all schedulingGates have been cleared",
      ),
    );
  }
  return errs;
}

function validateContainerUpdates(
  next: readonly Container[] | undefined,
  old: readonly Container[] | undefined,
  path: FieldPath,
): { errs: FieldErrorList; stop: boolean } {
  const a = next ?? [];
  const b = old ?? [];
  if (a.length !== b.length) {
    return {
      errs: [forbiddenField(path, "pod updates may not add or remove containers")],
      stop: true,
    };
  }
  const errs: FieldErrorList = [];
  a.forEach((c, i) => {
    const image = c.image ?? "";
    if (image === "") errs.push(required(path.index(i).child("image")));
    if (image.trim() !== image) {
      errs.push(
        invalid(
          path.index(i).child("image"),
          image,
          "must not have leading or trailing whitespace",
        ),
      );
    }
  });
  return { errs, stop: false };
}

function validateOnlyAddedTolerations(
  next: readonly Toleration[] | undefined,
  old: readonly Toleration[] | undefined,
  path: FieldPath,
): FieldErrorList {
  for (const o of old ?? []) {
    const found = (next ?? []).some((t) => {
      const { tolerationSeconds: _a, ...rest } = t;
      const { tolerationSeconds: _b, ...oldRest } = o;
      return semanticEqual(rest, oldRest);
    });
    if (!found) {
      return [
        forbiddenField(
          path,
          "existing toleration can not be modified except its tolerationSeconds",
        ),
      ];
    }
  }
  return validateTolerations(next, path);
}

function goFieldName(jsonName: string): string {
  const special: Record<string, string> = {
    hostPID: "HostPID",
    hostIPC: "HostIPC",
    dnsConfig: "DNSConfig",
    dnsPolicy: "DNSPolicy",
    serviceAccount: "DeprecatedServiceAccount",
    os: "OS",
    setHostnameAsFQDN: "SetHostnameAsFQDN",
  };
  return special[jsonName] ?? `${jsonName.charAt(0).toUpperCase()}${jsonName.slice(1)}`;
}

/** A compact rendering of what differs, in the spirit of upstream's `cmp.Diff` of the specs. */
function specDiff(old: PodSpec, next: PodSpec): string {
  const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])].sort();
  const lines = ["  core.PodSpec{"];
  for (const key of keys) {
    const a = (old as unknown as Record<string, unknown>)[key];
    const b = (next as unknown as Record<string, unknown>)[key];
    if (semanticEqual(a, b)) continue;
    lines.push(`- \t${goFieldName(key)}: ${JSON.stringify(a ?? null)},`);
    lines.push(`+ \t${goFieldName(key)}: ${JSON.stringify(b ?? null)},`);
  }
  lines.push("  }");
  return lines.join("\n");
}

/** `ValidatePodUpdate`: the spec is immutable apart from the few fields upstream allows. */
export function validatePodUpdate(pod: Pod, old: Pod): FieldErrorList {
  const errs = validateObjectMetaUpdate(pod.metadata, old.metadata, metaPath);
  errs.push(...validatePodSpec(pod.spec ?? { containers: [] }, specPath));
  for (const field of ["containers", "initContainers"] as const) {
    const r = validateContainerUpdates(pod.spec[field], old.spec[field], specPath.child(field));
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const deadline = pod.spec.activeDeadlineSeconds;
  const oldDeadline = old.spec.activeDeadlineSeconds;
  if (deadline !== undefined) {
    if (deadline < 0 || deadline > maxInt32) {
      errs.push(
        invalid(
          specPath.child("activeDeadlineSeconds"),
          deadline,
          inclusiveRangeError(0, maxInt32),
        ),
      );
      return errs;
    }
    if (oldDeadline !== undefined && oldDeadline < deadline) {
      errs.push(
        invalid(
          specPath.child("activeDeadlineSeconds"),
          deadline,
          "must be less than or equal to previous value",
        ),
      );
      return errs;
    }
  } else if (oldDeadline !== undefined) {
    errs.push(
      invalid(
        specPath.child("activeDeadlineSeconds"),
        null,
        "must not update from a positive integer to nil value",
      ),
    );
  }
  errs.push(
    ...validateOnlyAddedTolerations(
      pod.spec.tolerations,
      old.spec.tolerations,
      specPath.child("tolerations"),
    ),
  );
  errs.push(
    ...validateOnlyDeletedSchedulingGates(
      pod.spec.schedulingGates,
      old.spec.schedulingGates,
      specPath.child("schedulingGates"),
    ),
  );
  if (semanticEqual(pod.spec, old.spec)) return errs;

  const munged: PodSpec = structuredClone(pod.spec);
  munged.containers = munged.containers.map((c, i) => withImage(c, old.spec.containers[i]?.image));
  if (munged.initContainers !== undefined) {
    munged.initContainers = munged.initContainers.map((c, i) =>
      withImage(c, old.spec.initContainers?.[i]?.image),
    );
  }
  assign(munged, "activeDeadlineSeconds", old.spec.activeDeadlineSeconds);
  assign(munged, "schedulingGates", old.spec.schedulingGates);
  assign(munged, "tolerations", old.spec.tolerations);
  const oldGrace = old.spec.terminationGracePeriodSeconds;
  if (oldGrace !== undefined && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = oldGrace;
  }
  if (
    (old.spec.schedulingGates ?? []).length > 0 &&
    !semanticEqual(munged.nodeSelector, old.spec.nodeSelector)
  ) {
    // A gated pod may gain nodeSelector entries, but not change or lose them.
    const before = old.spec.nodeSelector ?? {};
    const after = munged.nodeSelector ?? {};
    for (const [k, v] of Object.entries(before)) {
      if (after[k] !== v)
        errs.push(
          invalid(specPath.child("nodeSelector").key(k), after[k] ?? "", "field is immutable"),
        );
    }
    assign(munged, "nodeSelector", old.spec.nodeSelector);
  }
  if (!semanticEqual(munged, old.spec)) {
    errs.push(
      forbiddenField(
        specPath,
        `pod updates may not change fields other than ${updatablePodSpecFields.join(",")}\n${specDiff(old.spec, munged)}`,
      ),
    );
  }
  return errs;
}

function withImage(c: Container, image: string | undefined): Container {
  const copy = { ...c };
  if (image === undefined) delete copy.image;
  else copy.image = image;
  return copy;
}

function assign<K extends keyof PodSpec>(
  spec: PodSpec,
  key: K,
  value: PodSpec[K] | undefined,
): void {
  if (value === undefined) delete spec[key];
  else spec[key] = value;
}

/** `ValidatePodStatusUpdate` (the `pods/status` subresource). */
export function validatePodStatusUpdate(pod: Pod, old: Pod): FieldErrorList {
  const errs = validateObjectMetaUpdate(pod.metadata, old.metadata, metaPath);
  const statusPath = FieldPath.of("status");
  if ((pod.spec.nodeName ?? "") !== (old.spec.nodeName ?? "")) {
    errs.push(forbiddenField(statusPath.child("nodeName"), "may not be changed directly"));
  }
  const nominated = pod.status?.nominatedNodeName ?? "";
  if (nominated !== (old.status?.nominatedNodeName ?? "") && nominated !== "") {
    for (const msg of isDns1123Subdomain(nominated)) {
      errs.push(invalid(statusPath.child("nominatedNodeName"), nominated, msg));
    }
  }
  errs.push(
    ...validateImmutableField(
      pod.status?.qosClass,
      old.status?.qosClass,
      statusPath.child("qosClass"),
    ),
  );
  return errs;
}
