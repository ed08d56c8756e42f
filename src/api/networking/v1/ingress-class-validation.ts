/**
 * IngressClass validation: upstream's `ValidateIngressClass` and `ValidateIngressClassUpdate`
 * (pkg/apis/networking/validation, 1.33).
 */
import {
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
  required,
  tooLong,
} from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import {
  validateImmutableField,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import {
  isDns1123Label,
  isDns1123Subdomain,
  isValidPathSegmentName,
  regexError,
} from "../../validation/names.ts";
import type { IngressClass, IngressClassParametersReference } from "./ingress.ts";

const maxControllerLength = 250;
const supportedScopes = ["Cluster", "Namespace"];
const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRe = new RegExp(`^${httpPathFmt}$`);

/** apimachinery's `IsDomainPrefixedPath`: `acme.io/foo`, a DNS subdomain then a URL path. */
export function isDomainPrefixedPath(path: FieldPath, value: string): FieldErrorList {
  if (value === "") return [required(path)];
  const slash = value.indexOf("/");
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? "" : value.slice(slash + 1);
  if (slash < 0 || host === "" || rest === "") {
    return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errs: FieldErrorList = isDns1123Subdomain(host).map((msg) => invalid(path, host, msg));
  if (!httpPathRe.test(rest)) {
    errs.push(invalid(path, rest, regexError("must be a valid path", httpPathFmt)));
  }
  return errs;
}

/** `validateIngressClassParametersReference`. */
function validateParameters(
  parameters: IngressClassParametersReference,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (parameters.apiGroup !== undefined && parameters.apiGroup !== null) {
    for (const msg of isDns1123Subdomain(parameters.apiGroup)) {
      errs.push(invalid(path.child("apiGroup"), parameters.apiGroup, msg));
    }
  }
  for (const field of ["kind", "name"] as const) {
    const value = parameters[field] ?? "";
    if (value === "") errs.push(required(path.child(field)));
    else {
      for (const msg of isValidPathSegmentName(value)) {
        errs.push(invalid(path.child(field), value, msg));
      }
    }
  }
  const scope = parameters.scope;
  if (scope === undefined || scope === null) {
    errs.push(required(path.child("scope")));
    return errs;
  }
  const namespace = parameters.namespace ?? undefined;
  if (!supportedScopes.includes(scope)) {
    errs.push(notSupported(path.child("scope"), scope, supportedScopes));
  } else if (scope === "Namespace") {
    if (namespace === undefined) {
      errs.push(required(path.child("namespace"), "`parameters.scope` is set to 'Namespace'"));
    } else {
      for (const msg of isDns1123Label(namespace)) {
        errs.push(invalid(path.child("namespace"), namespace, msg));
      }
    }
  } else if (namespace !== undefined) {
    errs.push(forbiddenField(path.child("namespace"), "`parameters.scope` is set to 'Cluster'"));
  }
  return errs;
}

/** `ValidateIngressClass`: a DNS-subdomain name, a domain-prefixed controller, parameters. */
export function validateIngressClass(ingressClass: IngressClass): FieldErrorList {
  const errs = validateObjectMeta(
    ingressClass.metadata,
    { namespaced: false },
    fieldPath("metadata"),
  );
  const spec = ingressClass.spec ?? {};
  const controller = spec.controller ?? "";
  const controllerPath = fieldPath("spec", "controller");
  if (controller === "") errs.push(required(controllerPath));
  else {
    if (new TextEncoder().encode(controller).length > maxControllerLength) {
      errs.push(tooLong(controllerPath, maxControllerLength));
    }
    errs.push(...isDomainPrefixedPath(controllerPath, controller));
  }
  if (spec.parameters !== undefined && spec.parameters !== null) {
    errs.push(...validateParameters(spec.parameters, fieldPath("spec", "parameters")));
  }
  return errs;
}

/** `ValidateIngressClassUpdate`: metadata rules, an immutable controller, then the object. */
export function validateIngressClassUpdate(
  ingressClass: IngressClass,
  old: IngressClass,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(ingressClass.metadata, old.metadata, fieldPath("metadata"));
  errs.push(
    ...validateImmutableField(
      ingressClass.spec?.controller ?? "",
      old.spec?.controller ?? "",
      fieldPath("spec", "controller"),
    ),
  );
  errs.push(...validateIngressClass(ingressClass));
  return errs;
}
