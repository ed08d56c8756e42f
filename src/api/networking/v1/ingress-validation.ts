/**
 * Ingress validation: upstream's pkg/apis/networking/validation (1.33) `ValidateIngressCreate`,
 * `ValidateIngressUpdate` and `ValidateIngressStatusUpdate`, with their field paths and
 * messages.
 */
import { invalidRaw } from "../../apps/v1/validation-helpers.ts";
import { type FieldErrorList, invalid, notSupported, required } from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import { isValidIp, parseIpSloppy } from "../../validation/ip.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../validation/meta.ts";
import {
  isDns1035Label,
  isDns1123Subdomain,
  isValidPathSegmentName,
  isValidPortName,
  isValidPortNum,
  isWildcardDns1123Subdomain,
} from "../../validation/names.ts";
import {
  type HttpIngressPath,
  type HttpIngressRuleValue,
  type Ingress,
  type IngressBackend,
  type IngressLoadBalancerIngress,
  type IngressRule,
  type IngressSpec,
  ingressClassAnnotation,
  type TypedLocalObjectReference,
} from "./ingress.ts";

const supportedPathTypes = ["Exact", "ImplementationSpecific", "Prefix"];
const invalidPathSequences = ["//", "/./", "/../", "%2f", "%2F"];
const invalidPathSuffixes = ["/..", "/."];

interface IngressValidationOptions {
  /** Old objects whose TLS secret names were already invalid may keep them. */
  readonly allowInvalidSecretName: boolean;
  /** Old objects with invalid rules under a wildcard host may keep them. */
  readonly allowInvalidWildcardHostRule: boolean;
}

const strict: IngressValidationOptions = {
  allowInvalidSecretName: false,
  allowInvalidWildcardHostRule: false,
};

/** `validateIngressTypedLocalObjectReference`: a backend's `resource`. */
function validateTypedLocalObjectReference(
  ref: TypedLocalObjectReference,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (ref.apiGroup !== undefined && ref.apiGroup !== null) {
    for (const msg of isDns1123Subdomain(ref.apiGroup)) {
      errs.push(invalid(path.child("apiGroup"), ref.apiGroup, msg));
    }
  }
  for (const field of ["kind", "name"] as const) {
    const value = ref[field] ?? "";
    if (value === "") errs.push(required(path.child(field)));
    else {
      for (const msg of isValidPathSegmentName(value)) {
        errs.push(invalid(path.child(field), value, msg));
      }
    }
  }
  return errs;
}

/** `validateIngressBackend`: exactly one of service and resource; a port name XOR number. */
function validateBackend(backend: IngressBackend, path: FieldPath): FieldErrorList {
  const hasResource = backend.resource !== undefined && backend.resource !== null;
  const service = backend.service ?? undefined;
  if (hasResource && service !== undefined) {
    return [invalid(path, "", "cannot set both resource and service backends")];
  }
  if (hasResource) {
    return validateTypedLocalObjectReference(
      backend.resource as TypedLocalObjectReference,
      path.child("resource"),
    );
  }
  if (service === undefined) return [invalid(path, "", "resource or service backend is required")];
  const errs: FieldErrorList = [];
  const name = service.name ?? "";
  const namePath = path.child("service", "name");
  if (name === "") errs.push(required(namePath));
  else for (const msg of isDns1035Label(name)) errs.push(invalid(namePath, name, msg));
  const portName = service.port?.name ?? "";
  const portNumber = service.port?.number ?? 0;
  const portPath = path.child("service", "port");
  if (portName !== "" && portNumber !== 0) {
    errs.push(invalid(path, "", "cannot set both port name & port number"));
  } else if (portName !== "") {
    for (const msg of isValidPortName(portName)) {
      errs.push(invalid(portPath.child("name"), portName, msg));
    }
  } else if (portNumber !== 0) {
    for (const msg of isValidPortNum(portNumber)) {
      errs.push(invalid(portPath.child("number"), portNumber, msg));
    }
  } else {
    errs.push(required(path, "port name or number is required"));
  }
  return errs;
}

/** `validateHTTPIngressPath`: pathType is required; Exact and Prefix paths must be clean. */
function validatePath(path: HttpIngressPath, at: FieldPath): FieldErrorList {
  if (path.pathType === undefined || path.pathType === null) {
    return [required(at.child("pathType"), "pathType must be specified")];
  }
  const errs: FieldErrorList = [];
  const value = path.path ?? "";
  const pathPath = at.child("path");
  switch (path.pathType) {
    case "Exact":
    case "Prefix":
      if (!value.startsWith("/")) errs.push(invalid(pathPath, value, "must be an absolute path"));
      for (const sequence of invalidPathSequences) {
        if (value.includes(sequence)) {
          errs.push(invalid(pathPath, value, `must not contain '${sequence}'`));
        }
      }
      for (const suffix of invalidPathSuffixes) {
        if (value.endsWith(suffix)) {
          errs.push(invalid(pathPath, value, `cannot end with '${suffix}'`));
        }
      }
      break;
    case "ImplementationSpecific":
      if (value !== "" && !value.startsWith("/")) {
        errs.push(invalid(pathPath, value, "must be an absolute path"));
      }
      break;
    default:
      errs.push(notSupported(at.child("pathType"), path.pathType, supportedPathTypes));
  }
  errs.push(...validateBackend(path.backend ?? {}, at.child("backend")));
  return errs;
}

/** `validateIngressRuleValue` (the `http` part of a rule). */
function validateRuleValue(http: HttpIngressRuleValue | undefined, at: FieldPath): FieldErrorList {
  if (http === undefined || http === null) return [];
  const httpPath = at.child("http");
  const paths = http.paths ?? [];
  const errs: FieldErrorList = [];
  if (paths.length === 0) errs.push(required(httpPath.child("paths")));
  paths.forEach((p, i) => {
    errs.push(...validatePath(p ?? {}, httpPath.child("paths").index(i)));
  });
  return errs;
}

/** `validateIngressRules`: hosts are DNS names (a leading `*.` allowed), not IP addresses. */
function validateRules(
  rules: readonly IngressRule[],
  path: FieldPath,
  options: IngressValidationOptions,
): FieldErrorList {
  const errs: FieldErrorList = [];
  rules.forEach((rule, i) => {
    const at = path.index(i);
    const host = rule?.host ?? "";
    let wildcard = false;
    if (host !== "") {
      if (parseIpSloppy(host) !== undefined) {
        errs.push(invalid(at.child("host"), host, "must be a DNS name, not an IP address"));
      }
      if (host.includes("*")) {
        for (const msg of isWildcardDns1123Subdomain(host)) {
          errs.push(invalid(at.child("host"), host, msg));
        }
        wildcard = true;
      } else {
        for (const msg of isDns1123Subdomain(host)) errs.push(invalid(at.child("host"), host, msg));
      }
    }
    if (!wildcard || !options.allowInvalidWildcardHostRule) {
      errs.push(...validateRuleValue(rule?.http ?? undefined, at));
    }
  });
  return errs;
}

/** `validateIngressTLS`: hosts as rule hosts; a secret name, when set, is a Secret's name. */
function validateTls(
  spec: IngressSpec,
  path: FieldPath,
  options: IngressValidationOptions,
): FieldErrorList {
  const errs: FieldErrorList = [];
  (spec.tls ?? []).forEach((tls, t) => {
    (tls?.hosts ?? []).forEach((host, i) => {
      const at = path.index(t).child("hosts").index(i);
      const check = host.includes("*") ? isWildcardDns1123Subdomain : isDns1123Subdomain;
      for (const msg of check(host)) errs.push(invalid(at, host, msg));
    });
    const secretName = tls?.secretName ?? "";
    if (!options.allowInvalidSecretName && secretName !== "") {
      for (const msg of isDns1123Subdomain(secretName)) {
        errs.push(invalid(path.index(t).child("secretName"), secretName, msg));
      }
    }
  });
  return errs;
}

/** Go's `%#v` of `[]networking.IngressRule` as upstream's "either ... or rules" error prints it. */
function goRules(rules: readonly IngressRule[] | undefined | null): string {
  return rules === undefined || rules === null
    ? "[]networking.IngressRule(nil)"
    : "[]networking.IngressRule{}";
}

/** `ValidateIngressSpec`. */
function validateSpec(
  spec: IngressSpec,
  path: FieldPath,
  options: IngressValidationOptions,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const rules = spec.rules ?? [];
  const defaultBackend = spec.defaultBackend ?? undefined;
  if (rules.length === 0 && defaultBackend === undefined) {
    errs.push(
      invalidRaw(path, goRules(spec.rules), "either `defaultBackend` or `rules` must be specified"),
    );
  }
  if (defaultBackend !== undefined) {
    errs.push(...validateBackend(defaultBackend, path.child("defaultBackend")));
  }
  if (rules.length > 0) errs.push(...validateRules(rules, path.child("rules"), options));
  if ((spec.tls ?? []).length > 0) errs.push(...validateTls(spec, path.child("tls"), options));
  if (spec.ingressClassName !== undefined && spec.ingressClassName !== null) {
    for (const msg of isDns1123Subdomain(spec.ingressClassName)) {
      errs.push(invalid(path.child("ingressClassName"), spec.ingressClassName, msg));
    }
  }
  return errs;
}

function validate(ingress: Ingress, options: IngressValidationOptions): FieldErrorList {
  const errs = validateObjectMeta(ingress.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(...validateSpec(ingress.spec ?? {}, fieldPath("spec"), options));
  return errs;
}

/**
 * `ValidateIngressCreate`: the object, and the deprecated class annotation must agree with
 * `spec.ingressClassName` when both are set.
 */
export function validateIngressCreate(ingress: Ingress): FieldErrorList {
  const errs = validate(ingress, strict);
  const annotation = ingress.metadata.annotations?.[ingressClassAnnotation];
  const className = ingress.spec?.ingressClassName;
  if (annotation !== undefined && className !== undefined && className !== null) {
    if (annotation !== className) {
      errs.push(
        invalid(
          fieldPath("annotations").child(ingressClassAnnotation),
          annotation,
          "must match `ingressClassName` when both are specified",
        ),
      );
    }
  }
  return errs;
}

function hasInvalidSecretName(old: Ingress): boolean {
  return (old.spec?.tls ?? []).some((tls) => {
    const name = tls?.secretName ?? "";
    return name !== "" && isDns1123Subdomain(name).length > 0;
  });
}

function hasInvalidWildcardHostRule(old: Ingress): boolean {
  return (old.spec?.rules ?? []).some(
    (rule) =>
      (rule?.host ?? "").includes("*") &&
      validateRuleValue(rule?.http ?? undefined, fieldPath("")).length > 0,
  );
}

/**
 * `ValidateIngressUpdate`: metadata rules, then the new object, tolerating invalid TLS secret
 * names and wildcard-host rules the stored object already had.
 */
export function validateIngressUpdate(ingress: Ingress, old: Ingress): FieldErrorList {
  const errs = validateObjectMetaUpdate(ingress.metadata, old.metadata, fieldPath("metadata"));
  errs.push(
    ...validate(ingress, {
      allowInvalidSecretName: hasInvalidSecretName(old),
      allowInvalidWildcardHostRule: hasInvalidWildcardHostRule(old),
    }),
  );
  return errs;
}

function validateLoadBalancerIngress(
  entry: IngressLoadBalancerIngress,
  at: FieldPath,
  existingIps: readonly string[],
): FieldErrorList {
  const errs: FieldErrorList = [];
  const ip = entry.ip ?? "";
  if (ip !== "" && !existingIps.includes(ip)) errs.push(...isValidIp(at.child("ip"), ip));
  const hostname = entry.hostname ?? "";
  if (hostname !== "") {
    for (const msg of isDns1123Subdomain(hostname)) {
      errs.push(invalid(at.child("hostname"), hostname, msg));
    }
    if (parseIpSloppy(hostname) !== undefined) {
      errs.push(invalid(at.child("hostname"), hostname, "must be a DNS name, not an IP address"));
    }
  }
  return errs;
}

/**
 * `ValidateIngressStatusUpdate`: metadata rules and `status.loadBalancer.ingress` (addresses
 * already in the old status are not checked again).
 */
export function validateIngressStatusUpdate(ingress: Ingress, old: Ingress): FieldErrorList {
  const errs = validateObjectMetaUpdate(ingress.metadata, old.metadata, fieldPath("metadata"));
  const existingIps = (old.status?.loadBalancer?.ingress ?? [])
    .map((entry) => entry?.ip ?? "")
    .filter((ip) => ip !== "");
  const path = fieldPath("status", "loadBalancer", "ingress");
  (ingress.status?.loadBalancer?.ingress ?? []).forEach((entry, i) => {
    errs.push(...validateLoadBalancerIngress(entry ?? {}, path.index(i), existingIps));
  });
  return errs;
}
