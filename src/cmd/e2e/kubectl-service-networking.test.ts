/**
 * Service networking with real kubectl against `gantry up`: a Deployment exposed as a Service
 * gets Endpoints listing both pods and one EndpointSlice, and the `kubernetes` Service exists,
 * on kubectl 1.27, 1.30 and 1.33 (one gantry, one namespace per version).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  eventually,
  type GantryProcess,
  type KubectlResult,
  kubectl,
  kubectlOk as ok,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

let gantry: GantryProcess;
before(async () => {
  gantry = await startGantry();
});
after(async () => {
  await gantry[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

for (const version of ["1.27", "1.30", "1.33"]) {
  describe(`kubectl ${version}: Services, Endpoints and EndpointSlices`, () => {
    const ns = `net-${version.replace(".", "-")}`;
    const run = (args: string[]): Promise<KubectlResult> => kubectl(gantry, version, args);

    test("api-resources lists endpoints (ep) and discovery.k8s.io endpointslices", async () => {
      const resources = ok(await run(["api-resources"]), "api-resources");
      assert.match(resources, /^endpoints\s+ep\s+v1\s+true\s+Endpoints$/m);
      assert.match(resources, /^endpointslices\s+discovery\.k8s\.io\/v1\s+true\s+EndpointSlice$/m);
    });

    test("api-versions lists discovery.k8s.io/v1; explain reads the schemas", async () => {
      assert.match(ok(await run(["api-versions"]), "api-versions"), /^discovery\.k8s\.io\/v1$/m);
      assert.match(
        ok(await run(["explain", "endpointslices.addressType"]), "explain endpointslices"),
        /addressType specifies the type of address carried by this EndpointSlice/,
      );
      assert.match(
        ok(await run(["explain", "endpoints.subsets.notReadyAddresses"]), "explain endpoints"),
        /^FIELD: notReadyAddresses <\[\]EndpointAddress>$/m,
      );
    });

    test("the kubernetes Service exists", async () => {
      const out = ok(await run(["get", "svc", "kubernetes"]), "get svc kubernetes");
      assert.match(out, /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE$/m);
      assert.match(out, /^kubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP\s+\S+$/m);
    });

    test("an exposed deployment's Service gets Endpoints with both pods and one EndpointSlice", async () => {
      ok(await run(["create", "namespace", ns]), "create namespace");
      ok(
        await run(["-n", ns, "create", "deployment", "web", "--image=nginx", "--replicas=2"]),
        "create deployment",
      );
      assert.match(
        ok(await run(["-n", ns, "expose", "deployment", "web", "--port=80"]), "expose"),
        /service\/web exposed/,
      );
      const endpoints = await eventually(async () => {
        const result = await run(["-n", ns, "get", "endpoints", "web"]);
        // kube-apiserver 1.33 deprecates v1 Endpoints; kubectl prints its warning.
        assert.match(
          result.stderr,
          /^Warning: v1 Endpoints is deprecated in v1\.33\+; use discovery\.k8s\.io\/v1 EndpointSlice$/m,
        );
        const out = ok(result, "get endpoints");
        assert.match(out, /^NAME\s+ENDPOINTS\s+AGE$/m);
        const row = /^web\s+(\S+)\s+\S+$/m.exec(out);
        assert.ok(row !== null, `a row for web in:\n${out}`);
        const addresses = (row[1] ?? "").split(",");
        assert.equal(addresses.length, 2, `two ready addresses in ${row[1]}`);
        for (const address of addresses) assert.match(address, /^\d+\.\d+\.\d+\.\d+:80$/);
        return addresses;
      }, 60_000);
      const slices = ok(
        await run(["-n", ns, "get", "endpointslices", "-l", "kubernetes.io/service-name=web"]),
        "get endpointslices",
      );
      assert.match(slices, /^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE$/m);
      const rows = slices.split("\n").filter((line) => line.startsWith("web-"));
      assert.equal(rows.length, 1, `one slice in:\n${slices}`);
      const [, addressType, ports, listed] = (rows[0] ?? "").split(/\s+/);
      assert.equal(addressType, "IPv4");
      assert.equal(ports, "80");
      assert.deepEqual(
        (listed ?? "").split(",").sort(),
        endpoints.map((a) => a.replace(/:80$/, "")).sort(),
      );
      // describe reads the endpoints (1.33 from the EndpointSlices, older ones from Endpoints).
      const described = ok(await run(["-n", ns, "describe", "svc", "web"]), "describe svc");
      const line = /^Endpoints:\s+(\S+)$/m.exec(described);
      assert.ok(line !== null, `an Endpoints line in:\n${described}`);
      assert.deepEqual((line[1] ?? "").split(",").sort(), [...endpoints].sort());
      // The short name works too.
      assert.match(ok(await run(["-n", ns, "get", "ep"]), "get ep"), /^web\s+/m);
    });
  });
}
