import assert from "node:assert/strict";
import test from "node:test";
import type { ClusterRole } from "../../api/index.ts";
import { aggregatedRules } from "./controller.ts";

const edit: ClusterRole = {
  metadata: { name: "edit" },
  aggregationRule: {
    clusterRoleSelectors: [
      { matchLabels: { "rbac.authorization.k8s.io/aggregate-to-edit": "true" } },
    ],
  },
  rules: [],
};
const toEdit = (
  name: string,
  resource: string,
  labels = { "rbac.authorization.k8s.io/aggregate-to-edit": "true" },
): ClusterRole => ({
  metadata: { name, labels },
  rules: [{ verbs: ["get"], apiGroups: [""], resources: [resource] }],
});

const cases: {
  name: string;
  role: ClusterRole;
  roles: ClusterRole[];
  want: string[] | undefined;
}[] = [
  {
    name: "no aggregation rule: nothing to compute",
    role: toEdit("plain", "pods"),
    roles: [],
    want: undefined,
  },
  {
    name: "rules of matching roles, sorted by name",
    role: edit,
    roles: [toEdit("z", "secrets"), toEdit("a", "pods"), toEdit("x", "nodes", {} as never)],
    want: ["pods", "secrets"],
  },
  {
    name: "a rule two roles share appears once",
    role: edit,
    roles: [toEdit("a", "pods"), toEdit("b", "pods")],
    want: ["pods"],
  },
  {
    name: "the role itself is never a source",
    role: {
      ...edit,
      metadata: { name: "edit", labels: { "rbac.authorization.k8s.io/aggregate-to-edit": "true" } },
    },
    roles: [edit],
    want: [],
  },
];

for (const c of cases) {
  test(`aggregatedRules: ${c.name}`, () => {
    const got = aggregatedRules(c.role, [c.role, ...c.roles]);
    assert.deepEqual(
      got?.map((r) => (r.resources ?? []).join(",")),
      c.want,
    );
  });
}
