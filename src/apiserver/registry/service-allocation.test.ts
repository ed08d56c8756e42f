import assert from "node:assert/strict";
import { test } from "node:test";
import type { Service } from "../../api/index.ts";
import { startTestApiServer } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";

ensureNoLeaksInEachTest();

const path = "/api/v1/namespaces/default/services";

function service(name: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name },
    spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec },
  };
}

/** An API server with the `default` namespace. */
async function startServer() {
  const server = await startTestApiServer();
  await server.send("POST", "/api/v1/namespaces", { body: { metadata: { name: "default" } } });
  return server;
}

const inServiceCidr = (ip: string | undefined): boolean => {
  const [a, b] = (ip ?? "").split(".").map(Number);
  return a === 10 && b !== undefined && b >= 96 && b <= 111;
};

test("Services get distinct cluster IPs of 10.96.0.0/12, single-stack IPv4, even created back to back", async () => {
  await using server = await startServer();
  const created = await Promise.all(
    ["a", "b", "c", "d"].map(async (name) => {
      const response = await server.send("POST", path, { body: service(name) });
      assert.equal(response.status, 201, await response.clone().text());
      return (await response.json()) as Service;
    }),
  );
  const ips = created.map((s) => s.spec?.clusterIP);
  for (const ip of ips) assert.ok(inServiceCidr(ip), `${ip} is in 10.96.0.0/12`);
  assert.equal(new Set(ips).size, 4, `four different addresses: ${ips}`);
  assert.deepEqual(created[0]?.spec?.clusterIPs, [ips[0]]);
  assert.deepEqual(created[0]?.spec?.ipFamilies, ["IPv4"]);
  assert.equal(created[0]?.spec?.ipFamilyPolicy, "SingleStack");
});

test("A requested cluster IP is kept, refused outside the range or when taken; None is headless", async () => {
  await using server = await startServer();
  const fixed = await server.send("POST", path, {
    body: service("fixed", { clusterIP: "10.100.0.7" }),
  });
  assert.equal(((await fixed.json()) as Service).spec?.clusterIP, "10.100.0.7");
  const refusals = [
    [
      service("outside", { clusterIP: "1.2.3.4" }),
      'Service "outside" is invalid: spec.clusterIPs: Invalid value: []string{"1.2.3.4"}: failed to allocate IP 1.2.3.4: the provided IP (1.2.3.4) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    ],
    [
      service("taken", { clusterIP: "10.100.0.7" }),
      'Service "taken" is invalid: spec.clusterIPs: Invalid value: []string{"10.100.0.7"}: failed to allocate IP 10.100.0.7: provided IP is already allocated',
    ],
  ] as const;
  for (const [body, message] of refusals) {
    const response = await server.send("POST", path, { body });
    assert.equal(response.status, 422);
    assert.equal(((await response.json()) as { message: string }).message, message);
  }
  const headless = await server.send("POST", path, {
    body: service("headless", { clusterIP: "None" }),
  });
  const spec = ((await headless.json()) as Service).spec;
  assert.equal(spec?.clusterIP, "None");
  assert.deepEqual(spec?.clusterIPs, ["None"]);
  const external = await server.send("POST", path, {
    body: {
      ...service("ext", { type: "ExternalName", externalName: "example.com" }),
      spec: { type: "ExternalName", externalName: "example.com" },
    },
  });
  assert.equal(
    ((await external.json()) as Service).spec?.clusterIP,
    undefined,
    "ExternalName: none",
  );
});

test("NodePort Services get ports of 30000-32767; an update without them keeps them and the cluster IP", async () => {
  await using server = await startServer();
  const created = (await (
    await server.send("POST", path, { body: service("np", { type: "NodePort" }) })
  ).json()) as Service;
  const nodePort = created.spec?.ports?.[0]?.nodePort ?? 0;
  assert.ok(nodePort >= 30000 && nodePort <= 32767, `node port ${nodePort} in range`);
  const replaced = await server.send("PUT", `${path}/np`, {
    body: {
      ...service("np", { type: "NodePort" }),
      metadata: { name: "np", resourceVersion: created.metadata.resourceVersion },
    },
  });
  assert.equal(replaced.status, 200, await replaced.clone().text());
  const spec = ((await replaced.json()) as Service).spec;
  assert.equal(spec?.clusterIP, created.spec?.clusterIP, "the cluster IP stays");
  assert.equal(spec?.ports?.[0]?.nodePort, nodePort, "the node port stays");
  const outside = await server.send("POST", path, {
    body: service("np2", { type: "NodePort", ports: [{ port: 80, nodePort: 80 }] }),
  });
  assert.equal(outside.status, 422);
  assert.match(
    ((await outside.json()) as { message: string }).message,
    /spec\.ports\[0\]\.nodePort: Invalid value: 80: provided port is not in the valid range\. The range of valid ports is 30000-32767/,
  );
  const taken = await server.send("POST", path, {
    body: service("np3", { type: "NodePort", ports: [{ port: 80, nodePort }] }),
  });
  assert.match(
    ((await taken.json()) as { message: string }).message,
    new RegExp(
      `spec\\.ports\\[0\\]\\.nodePort: Invalid value: ${nodePort}: provided port is already allocated`,
    ),
  );
});
