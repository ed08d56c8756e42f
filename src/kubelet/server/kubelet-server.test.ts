import assert from "node:assert/strict";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import test from "node:test";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { type KubeletEndpoints, newKubeletServer, nodeNameOfHost } from "./kubelet-server.ts";

ensureNoLeaksInEachTest();

const endpoints: KubeletEndpoints = {
  isRunning: (node) => (node === "n1" ? true : node === "down" ? false : undefined),
  spec: (node) => ({ num_cores: 4, node }),
  pods: (node) => ({ kind: "PodList", items: [], node }),
  configz: (node) => ({ kubeletconfig: { node } }),
  podResources: (node) => ({ pod_resources: [{ name: "p", namespace: node }] }),
  allocatableResources: () => ({ cpu_ids: [1, 2] }),
  metrics: (node) => `kubelet_node_name{node="${node}"} 1\n`,
};

function get(port: number, host: string, path: string): Promise<[number, string]> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve([res.statusCode ?? 0, Buffer.concat(chunks).toString()]));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

test("newKubeletServer: virtual-hosts by node name", async () => {
  const server = createServer(newKubeletServer(endpoints));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  try {
    const got = [
      await get(port, "n1:10250", "/spec/"),
      await get(port, "n1", "/pods"),
      await get(port, "N1", "/configz"),
      await get(port, "n1", "/healthz"),
      await get(port, "n1", "/metrics"),
      await get(port, "n1", "/podresources"),
      await get(port, "n1", "/podresources/allocatable"),
      await get(port, "n1", "/podresources/v1/list"),
      await get(port, "down", "/healthz"),
      await get(port, "other", "/spec/"),
    ];
    assert.deepEqual(got, [
      [200, '{"num_cores":4,"node":"n1"}'],
      [200, '{"kind":"PodList","items":[],"node":"n1"}'],
      [200, '{"kubeletconfig":{"node":"n1"}}'],
      [200, "ok"],
      [200, 'kubelet_node_name{node="n1"} 1\n'],
      [200, '{"pod_resources":[{"name":"p","namespace":"n1"}]}'],
      [200, '{"cpu_ids":[1,2]}'],
      [404, "404 page not found\n"],
      [503, 'the kubelet of node "down" is down\n'],
      [404, 'no emulated kubelet runs node "other"\n'],
    ]);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test("nodeNameOfHost: strips the port, including IPv6 brackets", () => {
  assert.deepEqual(
    [
      nodeNameOfHost("n1:10250"),
      nodeNameOfHost("n1"),
      nodeNameOfHost("[::1]:80"),
      nodeNameOfHost(undefined),
    ],
    ["n1", "n1", "::1", ""],
  );
});
