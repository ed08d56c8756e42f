import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../meta/field-errors.ts";
import type { ClusterRole, Role, RoleBinding } from "./types.ts";
import { defaultSubjects } from "./types.ts";
import {
  validateClusterRole,
  validateClusterRoleBinding,
  validateRole,
  validateRoleBinding,
  validateRoleBindingUpdate,
} from "./validation.ts";

const roleCases: { name: string; role: Role; want: string[] }[] = [
  {
    name: "a valid role",
    role: {
      metadata: { name: "r", namespace: "a" },
      rules: [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }],
    },
    want: [],
  },
  {
    name: "a rule without verbs, groups or resources",
    role: { metadata: { name: "r", namespace: "a" }, rules: [{ verbs: [] }] },
    want: [
      "rules[0].verbs: Required value: verbs must contain at least one value",
      "rules[0].apiGroups: Required value: resource rules must supply at least one api group",
      "rules[0].resources: Required value: resource rules must supply at least one resource",
    ],
  },
  {
    name: "non-resource URLs in a namespaced role",
    role: {
      metadata: { name: "r", namespace: "a" },
      rules: [{ verbs: ["get"], nonResourceURLs: ["/x"] }],
    },
    want: [
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs',
    ],
  },
  {
    name: "a name with a slash",
    role: { metadata: { name: "a/b", namespace: "a" } },
    want: ["metadata.name: Invalid value: \"a/b\": may not contain '/'"],
  },
];

for (const c of roleCases) {
  test(`validateRole: ${c.name}`, () => {
    assert.deepEqual(validateRole(c.role).map(fieldErrorString), c.want);
  });
}

const clusterRoleCases: { name: string; role: ClusterRole; want: string[] }[] = [
  {
    name: "URLs and resources in one rule",
    role: {
      metadata: { name: "c" },
      rules: [{ verbs: ["get"], apiGroups: [""], nonResourceURLs: ["/x"] }],
    },
    want: [
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs',
    ],
  },
  {
    name: "an aggregation rule without selectors",
    role: { metadata: { name: "c" }, aggregationRule: {} },
    want: [
      "aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil",
    ],
  },
  {
    name: "system-style names with colons",
    role: {
      metadata: { name: "system:aggregate-to-edit" },
      rules: [{ verbs: ["get"], nonResourceURLs: ["/healthz"] }],
    },
    want: [],
  },
];

for (const c of clusterRoleCases) {
  test(`validateClusterRole: ${c.name}`, () => {
    assert.deepEqual(validateClusterRole(c.role).map(fieldErrorString), c.want);
  });
}

const ref = { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "r" };
const bindingCases: { name: string; binding: RoleBinding; want: string[] }[] = [
  {
    name: "defaulted user and group subjects",
    binding: {
      metadata: { name: "b", namespace: "a" },
      roleRef: ref,
      subjects: [
        { kind: "User", name: "u" },
        { kind: "Group", name: "g" },
        { kind: "ServiceAccount", name: "sa" },
      ],
    },
    want: [],
  },
  {
    name: "an unknown subject kind and an empty name",
    binding: {
      metadata: { name: "b", namespace: "a" },
      roleRef: ref,
      subjects: [{ kind: "Robot", name: "" }],
    },
    want: [
      "subjects[0].name: Required value",
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    ],
  },
  {
    name: "a roleRef to another kind",
    binding: { metadata: { name: "b", namespace: "a" }, roleRef: { ...ref, kind: "Pod" } },
    want: ['roleRef.kind: Unsupported value: "Pod": supported values: "Role", "ClusterRole"'],
  },
];

for (const c of bindingCases) {
  test(`validateRoleBinding: ${c.name}`, () => {
    const binding = structuredClone(c.binding);
    defaultSubjects(binding);
    assert.deepEqual(validateRoleBinding(binding).map(fieldErrorString), c.want);
  });
}

test("validateClusterRoleBinding: a Role reference and a namespace-less service account", () => {
  const binding = {
    metadata: { name: "b" },
    roleRef: ref,
    subjects: [{ kind: "ServiceAccount", name: "sa" }],
  };
  assert.deepEqual(validateClusterRoleBinding(binding).map(fieldErrorString), [
    'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
    "subjects[0].namespace: Required value",
  ]);
});

test("validateRoleBindingUpdate: the roleRef is immutable", () => {
  const old: RoleBinding = {
    metadata: { name: "b", namespace: "a", resourceVersion: "1" },
    roleRef: ref,
  };
  const next: RoleBinding = { ...old, roleRef: { ...ref, name: "other" } };
  assert.deepEqual(validateRoleBindingUpdate(next, old).map(fieldErrorString), [
    'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"other"}: cannot change roleRef',
  ]);
});
