/** `rbac.authorization.k8s.io/v1` validation, as upstream's `pkg/apis/rbac/validation`. */
import {
  type FieldError,
  type FieldErrorList,
  invalid,
  notSupported,
  required,
} from "../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../meta/field-path.ts";
import {
  validateLabelSelector,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../validation/meta.ts";
import { isDns1123Subdomain, isValidPathSegmentName } from "../validation/names.ts";
import {
  type ClusterRole,
  type ClusterRoleBinding,
  type PolicyRule,
  type Role,
  type RoleBinding,
  type RoleRef,
  rbacGroup,
  type Subject,
} from "./types.ts";

/** Go's `%#v` of a string slice: `[]string{"a", "b"}`. */
function goStrings(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(", ")}}`;
}

/** An Invalid error whose value prints as Go's `%#v` of a struct or slice. */
function invalidGo(path: FieldPath, printed: string, detail: string): FieldError {
  return { type: "FieldValueInvalid", field: path.toString(), detail: `${printed}: ${detail}` };
}

/** `ValidatePolicyRule`. */
export function validatePolicyRule(
  rule: PolicyRule,
  namespaced: boolean,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if ((rule.verbs ?? []).length === 0) {
    errs.push(required(path.child("verbs"), "verbs must contain at least one value"));
  }
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length > 0) {
    if (namespaced) {
      errs.push(
        invalidGo(
          path.child("nonResourceURLs"),
          goStrings(urls),
          "namespaced rules cannot apply to non-resource URLs",
        ),
      );
    }
    if (
      (rule.apiGroups ?? []).length > 0 ||
      (rule.resources ?? []).length > 0 ||
      (rule.resourceNames ?? []).length > 0
    ) {
      errs.push(
        invalidGo(
          path.child("nonResourceURLs"),
          goStrings(urls),
          "rules cannot apply to both regular resources and non-resource URLs",
        ),
      );
    }
    return errs;
  }
  if ((rule.apiGroups ?? []).length === 0) {
    errs.push(
      required(path.child("apiGroups"), "resource rules must supply at least one api group"),
    );
  }
  if ((rule.resources ?? []).length === 0) {
    errs.push(
      required(path.child("resources"), "resource rules must supply at least one resource"),
    );
  }
  return errs;
}

function validateRules(
  rules: readonly PolicyRule[] | undefined,
  namespaced: boolean,
): FieldErrorList {
  const errs: FieldErrorList = [];
  (rules ?? []).forEach((rule, i) => {
    errs.push(...validatePolicyRule(rule, namespaced, fieldPath("rules").index(i)));
  });
  return errs;
}

export function validateRole(role: Role): FieldErrorList {
  const errs = validateObjectMeta(
    role.metadata,
    { namespaced: true, nameValidator: isValidPathSegmentName },
    fieldPath("metadata"),
  );
  errs.push(...validateRules(role.rules, true));
  return errs;
}

export function validateRoleUpdate(role: Role, old: Role): FieldErrorList {
  const errs = validateObjectMetaUpdate(role.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validateRules(role.rules, true));
  return errs;
}

function validateAggregationRule(role: ClusterRole): FieldErrorList {
  const rule = role.aggregationRule;
  if (rule === undefined || rule === null) return [];
  const path = fieldPath("aggregationRule", "clusterRoleSelectors");
  const selectors = rule.clusterRoleSelectors ?? [];
  if (selectors.length === 0) {
    return [
      required(path, "at least one clusterRoleSelector required if aggregationRule is non-nil"),
    ];
  }
  const errs: FieldErrorList = [];
  selectors.forEach((selector, i) => {
    errs.push(...validateLabelSelector(selector, path.index(i)));
  });
  return errs;
}

export function validateClusterRole(role: ClusterRole): FieldErrorList {
  const errs = validateObjectMeta(
    role.metadata,
    { namespaced: false, nameValidator: isValidPathSegmentName },
    fieldPath("metadata"),
  );
  errs.push(...validateRules(role.rules, false));
  errs.push(...validateAggregationRule(role));
  return errs;
}

export function validateClusterRoleUpdate(role: ClusterRole, old: ClusterRole): FieldErrorList {
  const errs = validateObjectMetaUpdate(role.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validateRules(role.rules, false));
  errs.push(...validateAggregationRule(role));
  return errs;
}

/** `ValidateRoleBindingSubject`. */
export function validateSubject(
  subject: Subject,
  namespaced: boolean,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const name = subject.name ?? "";
  const apiGroup = subject.apiGroup ?? "";
  if (name === "") errs.push(required(path.child("name")));
  switch (subject.kind) {
    case "ServiceAccount":
      if (name !== "") {
        for (const msg of isDns1123Subdomain(name))
          errs.push(invalid(path.child("name"), name, msg));
      }
      if (apiGroup !== "") errs.push(notSupported(path.child("apiGroup"), apiGroup, [""]));
      if (!namespaced && (subject.namespace ?? "") === "") {
        errs.push(required(path.child("namespace")));
      }
      break;
    case "User":
    case "Group":
      if (apiGroup !== rbacGroup) {
        errs.push(notSupported(path.child("apiGroup"), apiGroup, [rbacGroup]));
      }
      break;
    default:
      errs.push(
        notSupported(path.child("kind"), subject.kind ?? "", ["ServiceAccount", "User", "Group"]),
      );
  }
  return errs;
}

function validateRoleRef(ref: RoleRef | undefined, kinds: readonly string[]): FieldErrorList {
  const errs: FieldErrorList = [];
  const apiGroup = ref?.apiGroup ?? "";
  if (apiGroup !== rbacGroup) {
    errs.push(notSupported(fieldPath("roleRef", "apiGroup"), apiGroup, [rbacGroup]));
  }
  const kind = ref?.kind ?? "";
  if (!kinds.includes(kind)) errs.push(notSupported(fieldPath("roleRef", "kind"), kind, kinds));
  const name = ref?.name ?? "";
  if (name === "") {
    errs.push(required(fieldPath("roleRef", "name")));
  } else {
    for (const msg of isValidPathSegmentName(name)) {
      errs.push(invalid(fieldPath("roleRef", "name"), name, msg));
    }
  }
  return errs;
}

function validateBinding(
  binding: RoleBinding | ClusterRoleBinding,
  namespaced: boolean,
): FieldErrorList {
  const errs = validateObjectMeta(
    binding.metadata,
    { namespaced, nameValidator: isValidPathSegmentName },
    fieldPath("metadata"),
  );
  errs.push(
    ...validateRoleRef(binding.roleRef, namespaced ? ["Role", "ClusterRole"] : ["ClusterRole"]),
  );
  (binding.subjects ?? []).forEach((subject, i) => {
    errs.push(...validateSubject(subject, namespaced, fieldPath("subjects").index(i)));
  });
  return errs;
}

/** `rbac.RoleRef{APIGroup:"…", Kind:"…", Name:"…"}`, Go's `%#v`. */
function goRoleRef(ref: RoleRef | undefined): string {
  return `rbac.RoleRef{APIGroup:${JSON.stringify(ref?.apiGroup ?? "")}, Kind:${JSON.stringify(ref?.kind ?? "")}, Name:${JSON.stringify(ref?.name ?? "")}}`;
}

function validateBindingUpdate(
  binding: RoleBinding | ClusterRoleBinding,
  old: RoleBinding | ClusterRoleBinding,
  namespaced: boolean,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(binding.metadata, old.metadata, fieldPath("metadata"));
  const body = validateBinding(binding, namespaced).filter((e) => !e.field.startsWith("metadata"));
  errs.push(...body);
  const a = binding.roleRef;
  const b = old.roleRef;
  if (a?.apiGroup !== b?.apiGroup || a?.kind !== b?.kind || a?.name !== b?.name) {
    errs.push(invalidGo(fieldPath("roleRef"), goRoleRef(a), "cannot change roleRef"));
  }
  return errs;
}

export function validateRoleBinding(binding: RoleBinding): FieldErrorList {
  return validateBinding(binding, true);
}

export function validateRoleBindingUpdate(binding: RoleBinding, old: RoleBinding): FieldErrorList {
  return validateBindingUpdate(binding, old, true);
}

export function validateClusterRoleBinding(binding: ClusterRoleBinding): FieldErrorList {
  return validateBinding(binding, false);
}

export function validateClusterRoleBindingUpdate(
  binding: ClusterRoleBinding,
  old: ClusterRoleBinding,
): FieldErrorList {
  return validateBindingUpdate(binding, old, false);
}
