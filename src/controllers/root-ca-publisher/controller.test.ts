import assert from "node:assert/strict";
import { test } from "node:test";
import type { ConfigMap } from "../../api/index.ts";
import { rootCaConfigMapChange, rootCaDescription } from "./controller.ts";

const ca = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const published: ConfigMap = {
  metadata: {
    name: "kube-root-ca.crt",
    namespace: "team",
    uid: "u1",
    annotations: { "kubernetes.io/description": rootCaDescription },
  },
  data: { "ca.crt": ca },
};

test("rootCaConfigMapChange: a missing ConfigMap is created with the CA and the description", () => {
  assert.deepEqual(rootCaConfigMapChange(undefined, "team", ca), {
    action: "create",
    configMap: {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: "kube-root-ca.crt",
        namespace: "team",
        annotations: { "kubernetes.io/description": rootCaDescription },
      },
      data: { "ca.crt": ca },
    },
  });
});

test("rootCaConfigMapChange: the published ConfigMap needs nothing", () => {
  assert.deepEqual(rootCaConfigMapChange(published, "team", ca), { action: "none" });
});

const edits = [
  { name: "other data", edit: { data: { "ca.crt": ca, extra: "x" } } },
  { name: "another CA", edit: { data: { "ca.crt": "other" } } },
  {
    name: "no description",
    edit: { metadata: { ...published.metadata, annotations: { team: "a" } } },
  },
];
for (const c of edits) {
  test(`rootCaConfigMapChange: ${c.name} is put right, other metadata kept`, () => {
    const change = rootCaConfigMapChange({ ...published, ...c.edit } as ConfigMap, "team", ca);
    assert.equal(change.action, "update");
    if (change.action !== "update") return;
    assert.deepEqual(change.configMap.data, { "ca.crt": ca });
    assert.equal(change.configMap.metadata.uid, "u1");
    assert.equal(
      change.configMap.metadata.annotations?.["kubernetes.io/description"],
      rootCaDescription,
    );
  });
}
