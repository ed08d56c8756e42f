import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultPrinter } from "./default-printer.ts";
import { podPrinter } from "./pod.ts";
import { builtInPrinters, printerFor, printerKey } from "./registry.ts";

const expectedKeys = [
  "/pods",
  "/nodes",
  "/namespaces",
  "/configmaps",
  "/secrets",
  "/services",
  "/endpoints",
  "/serviceaccounts",
  "/events",
  "/replicationcontrollers",
  "/resourcequotas",
  "/limitranges",
  "/persistentvolumes",
  "/persistentvolumeclaims",
  "/podtemplates",
  "apps/deployments",
  "apps/replicasets",
  "apps/statefulsets",
  "apps/controllerrevisions",
  "apps/daemonsets",
  "batch/cronjobs",
  "batch/jobs",
  "networking.k8s.io/ingresses",
  "networking.k8s.io/ingressclasses",
  "networking.k8s.io/networkpolicies",
  "policy/poddisruptionbudgets",
  "coordination.k8s.io/leases",
  "discovery.k8s.io/endpointslices",
  "storage.k8s.io/storageclasses",
  "rbac.authorization.k8s.io/roles",
  "rbac.authorization.k8s.io/clusterroles",
  "rbac.authorization.k8s.io/rolebindings",
  "rbac.authorization.k8s.io/clusterrolebindings",
  "scheduling.k8s.io/priorityclasses",
  "scheduling.k8s.io/workloads",
  "scheduling.k8s.io/podgroups",
  "apiextensions.k8s.io/customresourcedefinitions",
];

test("builtInPrinters: one printer per served built-in resource", () => {
  assert.deepEqual([...builtInPrinters().keys()].sort(), [...expectedKeys].sort());
});

test("builtInPrinters: every printer's first column is the name column", () => {
  for (const [key, printer] of builtInPrinters()) {
    const nameColumn = printer.columns.find((c) => c.format === "name");
    assert.ok(nameColumn !== undefined, `${key} has a name column`);
  }
});

test("printerFor: built-in, then the default convertor", () => {
  const printers = builtInPrinters();
  assert.equal(printerFor(printers, "", "pods"), podPrinter);
  assert.equal(printerFor(printers, "example.com", "widgets"), defaultPrinter);
  assert.equal(printerKey("", "pods"), "/pods");
});
