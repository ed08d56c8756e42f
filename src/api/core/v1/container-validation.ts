/** Container validation (`validateContainerCommon`, ports, env, mounts, pull policy). */
import {
  duplicate,
  type FieldErrorList,
  forbiddenField,
  invalid,
  notFoundField,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import type { FieldPath } from "../../meta/field-path.ts";
import {
  isConfigMapKey,
  isDns1123Label,
  isDns1123Subdomain,
  isEnvVarName,
  isValidPortName,
  isValidPortNum,
} from "../../validation/names.ts";
import type { Container, ContainerPort, EnvVar, VolumeMount } from "./pod-template.ts";
import { validateResourceRequirements } from "./resource-validation.ts";

/** `ValidateDNS1123Label` at a path. */
export function validateDns1123LabelAt(value: string, path: FieldPath): FieldErrorList {
  return isDns1123Label(value).map((msg) => invalid(path, value, msg));
}

/** `ValidateDNS1123Subdomain` at a path. */
export function validateDns1123SubdomainAt(value: string, path: FieldPath): FieldErrorList {
  return isDns1123Subdomain(value).map((msg) => invalid(path, value, msg));
}

/** `validateContainerPorts`. */
export function validateContainerPorts(
  ports: readonly ContainerPort[] | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const names = new Set<string>();
  (ports ?? []).forEach((port, i) => {
    const p = path.index(i);
    const name = port.name ?? "";
    if (name !== "") {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) for (const msg of msgs) errs.push(invalid(p.child("name"), name, msg));
      else if (names.has(name)) errs.push(duplicate(p.child("name"), name));
      else names.add(name);
    }
    if ((port.containerPort ?? 0) === 0) {
      errs.push(required(p.child("containerPort")));
    } else {
      for (const msg of isValidPortNum(port.containerPort)) {
        errs.push(invalid(p.child("containerPort"), port.containerPort, msg));
      }
    }
    if ((port.hostPort ?? 0) !== 0) {
      for (const msg of isValidPortNum(port.hostPort ?? 0)) {
        errs.push(invalid(p.child("hostPort"), port.hostPort, msg));
      }
    }
    errs.push(...validateProtocol(port.protocol, p.child("protocol")));
  });
  return errs;
}

/** Protocol is required and one of SCTP, TCP, UDP. */
export function validateProtocol(protocol: string | undefined, path: FieldPath): FieldErrorList {
  if ((protocol ?? "") === "") return [required(path)];
  return ["SCTP", "TCP", "UDP"].includes(protocol ?? "")
    ? []
    : [notSupported(path, protocol, ["SCTP", "TCP", "UDP"])];
}

function validateKeySelector(
  selector: { name?: string; key: string },
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const name = selector.name ?? "";
  if (name === "") errs.push(required(path.child("name")));
  else errs.push(...validateDns1123SubdomainAt(name, path.child("name")));
  if ((selector.key ?? "") === "") errs.push(required(path.child("key")));
  else
    for (const msg of isConfigMapKey(selector.key))
      errs.push(invalid(path.child("key"), selector.key, msg));
  return errs;
}

/** `ValidateEnv`: names, and one value source at most. */
export function validateEnv(env: readonly EnvVar[] | undefined, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  (env ?? []).forEach((ev, i) => {
    const p = path.index(i);
    const name = ev.name ?? "";
    if (name === "") errs.push(required(p.child("name")));
    for (const msg of isEnvVarName(name)) errs.push(invalid(p.child("name"), name, msg));
    const from = ev.valueFrom;
    if (from === undefined) return;
    const vp = p.child("valueFrom");
    let sources = 0;
    if (from.fieldRef !== undefined) {
      sources++;
      if ((from.fieldRef.fieldPath ?? "") === "")
        errs.push(required(vp.child("fieldRef", "fieldPath")));
    }
    if (from.resourceFieldRef !== undefined) {
      sources++;
      if ((from.resourceFieldRef.resource ?? "") === "") {
        errs.push(required(vp.child("resourceFieldRef", "resource")));
      }
    }
    if (from.configMapKeyRef !== undefined) {
      sources++;
      errs.push(...validateKeySelector(from.configMapKeyRef, vp.child("configMapKeyRef")));
    }
    if (from.secretKeyRef !== undefined) {
      sources++;
      errs.push(...validateKeySelector(from.secretKeyRef, vp.child("secretKeyRef")));
    }
    if (from.fileKeyRef !== undefined) sources++;
    if (sources === 0) {
      errs.push(
        invalid(
          vp,
          "",
          "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
        ),
      );
    } else if ((ev.value ?? "") !== "") {
      errs.push(invalid(vp, "", "may not be specified when `value` is not empty"));
    } else if (sources > 1) {
      errs.push(invalid(vp, "", "may not have more than one field specified at a time"));
    }
  });
  return errs;
}

/** `ValidateVolumeMounts`: the volume exists and mount paths are unique. */
export function validateVolumeMounts(
  mounts: readonly VolumeMount[] | undefined,
  volumes: ReadonlySet<string>,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const mountPoints = new Set<string>();
  (mounts ?? []).forEach((m, i) => {
    const p = path.index(i);
    if ((m.name ?? "") === "") errs.push(required(p.child("name")));
    if (!volumes.has(m.name ?? "")) errs.push(notFoundField(p.child("name"), m.name ?? ""));
    if ((m.mountPath ?? "") === "") errs.push(required(p.child("mountPath")));
    if (mountPoints.has(m.mountPath))
      errs.push(invalid(p.child("mountPath"), m.mountPath, "must be unique"));
    mountPoints.add(m.mountPath);
    const sub = m.subPath ?? "";
    if (sub.startsWith("/")) errs.push(invalid(p.child("subPath"), sub, "must be a relative path"));
    if (sub.split(/[\\/]/).includes("..")) {
      errs.push(invalid(p.child("subPath"), sub, "must not contain '..'"));
    }
  });
  return errs;
}

function validateEnum(
  value: string | undefined,
  allowed: readonly string[],
  path: FieldPath,
): FieldErrorList {
  if ((value ?? "") === "") return [required(path)];
  return allowed.includes(value ?? "") ? [] : [notSupported(path, value, allowed)];
}

/** `validateContainerCommon`: what every kind of container must satisfy. */
export function validateContainerCommon(
  c: Container,
  volumes: ReadonlySet<string>,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const name = c.name ?? "";
  if (name === "") errs.push(required(path.child("name")));
  else errs.push(...validateDns1123LabelAt(name, path.child("name")));
  if ((c.image ?? "") === "") errs.push(required(path.child("image")));
  errs.push(
    ...validateEnum(
      c.terminationMessagePolicy,
      ["File", "FallbackToLogsOnError"],
      path.child("terminationMessagePolicy"),
    ),
  );
  errs.push(...validateContainerPorts(c.ports, path.child("ports")));
  errs.push(...validateEnv(c.env, path.child("env")));
  errs.push(...validateVolumeMounts(c.volumeMounts, volumes, path.child("volumeMounts")));
  errs.push(
    ...validateEnum(
      c.imagePullPolicy,
      ["Always", "IfNotPresent", "Never"],
      path.child("imagePullPolicy"),
    ),
  );
  errs.push(...validateResourceRequirements(c.resources, path.child("resources")));
  return errs;
}

/** `validateContainers`: at least one, unique names, no `restartPolicy`. */
export function validateContainers(
  containers: readonly Container[] | undefined,
  volumes: ReadonlySet<string>,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const list = containers ?? [];
  if (list.length === 0) errs.push(required(path));
  const names = new Set<string>();
  list.forEach((c, i) => {
    const p = path.index(i);
    errs.push(...validateContainerCommon(c, volumes, p));
    if (names.has(c.name)) errs.push(duplicate(p.child("name"), c.name));
    else names.add(c.name);
    if (c.restartPolicy !== undefined) {
      errs.push(forbiddenField(p.child("restartPolicy"), "may not be set for non-init containers"));
    }
  });
  return errs;
}

/**
 * `validateInitContainers`: names unique across init and regular containers; `restartPolicy`
 * may only be `Always` (a sidecar), and only sidecars may have probes or lifecycle hooks.
 */
export function validateInitContainers(
  containers: readonly Container[] | undefined,
  regular: readonly Container[] | undefined,
  volumes: ReadonlySet<string>,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const names = new Set((regular ?? []).map((c) => c.name));
  (containers ?? []).forEach((c, i) => {
    const p = path.index(i);
    errs.push(...validateContainerCommon(c, volumes, p));
    let sidecar = false;
    if (c.restartPolicy !== undefined) {
      if (c.restartPolicy !== "Always") {
        errs.push(notSupported(p.child("restartPolicy"), c.restartPolicy, ["Always"]));
      }
      sidecar = c.restartPolicy === "Always";
    }
    if (names.has(c.name)) errs.push(duplicate(p.child("name"), c.name));
    else if ((c.name ?? "") !== "") names.add(c.name);
    if (!sidecar) {
      for (const field of [
        "lifecycle",
        "livenessProbe",
        "readinessProbe",
        "startupProbe",
      ] as const) {
        if (c[field] !== undefined) {
          errs.push(
            forbiddenField(
              p.child(field),
              "may not be set for init containers without restartPolicy=Always",
            ),
          );
        }
      }
    }
  });
  return errs;
}
