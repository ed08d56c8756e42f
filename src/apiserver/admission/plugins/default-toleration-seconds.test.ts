import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultTolerations, type KubeObject } from "../../../api/index.ts";
import type { AdmissionAttributes } from "../admission.ts";
import { newDefaultTolerationSeconds } from "./default-toleration-seconds.ts";

const attributes = (object: KubeObject): AdmissionAttributes => ({
  operation: "CREATE",
  group: "",
  version: "v1",
  kind: "Pod",
  resource: "pods",
  subresource: "",
  namespace: "ns",
  name: "p",
  object,
  oldObject: undefined,
  dryRun: false,
  userInfo: { username: "u", groups: [] },
});

test("DefaultTolerationSeconds.mutate: not-ready and unreachable for 300 s unless tolerated", async () => {
  const plugin = newDefaultTolerationSeconds(defaultTolerations as never);
  const pod = {
    metadata: { name: "p" },
    spec: {
      containers: [{ name: "c", image: "x" }],
      tolerations: [
        { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute" },
      ],
    },
  } as unknown as KubeObject;
  const a = attributes(pod);
  assert.equal(plugin.handles(a), true, "pod creation");
  assert.equal(plugin.handles({ ...a, operation: "UPDATE" }), false, "updates keep theirs");
  await plugin.mutate?.(a);
  assert.deepEqual((pod["spec"] as { tolerations: unknown[] }).tolerations, [
    { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute" },
    {
      key: "node.kubernetes.io/not-ready",
      operator: "Exists",
      effect: "NoExecute",
      tolerationSeconds: 300,
    },
  ]);
});
