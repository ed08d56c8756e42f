import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { stringify } from "yaml";
import {
  type GantryProcess,
  type KubectlResult,
  kubectl,
  makeWidgetCrd,
  kubectlOk as ok,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

// kubectl scale (Deployment, StatefulSet, custom resource), CRDs with printer columns, and
// `wait --for=condition` against the real `gantry up`. Controllers may run (the Deployment and
// ReplicaSet ones give the workloads here pods and write their status), so the cases assert the
// spec they wrote and the selector the Scale reports, not replica counts in the status. Custom
// resources have no controller: their status only changes when a case writes it.

function failed(result: KubectlResult, what: string): string {
  assert.equal(result.code, 1, `${what} should fail:\n${result.stdout}${result.stderr}`);
  return result.stderr;
}

/** The shared Widget CRD, with a description for `kubectl explain` and status conditions for `kubectl wait`. */
const widgetCrd = makeWidgetCrd((crd) => {
  const schema = crd.spec.versions[0]?.schema?.openAPIV3Schema as
    | { properties?: Record<string, { properties?: Record<string, Record<string, unknown>> }> }
    | undefined;
  const size = schema?.properties?.["spec"]?.properties?.["size"];
  if (size !== undefined) size["description"] = "How big the widget is.";
  const status = schema?.properties?.["status"]?.properties;
  if (status !== undefined) {
    status["conditions"] = {
      type: "array",
      items: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    };
  }
});

for (const version of ["1.27", "1.30", "1.33"]) {
  describe(`kubectl ${version}: scale, custom resources and wait`, () => {
    let gantry: GantryProcess;
    const ns = `crd-${version.replace(".", "-")}`;
    const run = (args: string[]): Promise<KubectlResult> => kubectl(gantry, version, args);
    const file = (name: string, documents: readonly object[]): string => {
      const path = join(gantry.dataDir, `${ns}-${name}`);
      writeFileSync(path, documents.map((d) => stringify(d)).join("---\n"));
      return path;
    };
    const create = async (name: string, documents: readonly object[]): Promise<string> =>
      ok(await run(["create", "-f", file(name, documents)]), name);
    const jsonpath = async (kind: string, name: string, path: string): Promise<string> =>
      ok(await run(["-n", ns, "get", kind, name, "-o", `jsonpath=${path}`]), `${kind} ${path}`);

    before(async () => {
      gantry = await startGantry();
      ok(await run(["create", "namespace", ns]), "create namespace");
    });
    after(async () => {
      await gantry[Symbol.asyncDispose]();
    });
    ensureNoLeaksAfterSuite();

    test("scale a Deployment: --replicas, --current-replicas, --resource-version and a stale Scale", async () => {
      const template = {
        metadata: { labels: { app: "web" } },
        spec: { containers: [{ name: "nginx", image: "nginx:1.25" }] },
      };
      await create("deployment.yaml", [
        {
          apiVersion: "apps/v1",
          kind: "Deployment",
          metadata: { name: "web", namespace: ns },
          spec: { replicas: 1, selector: { matchLabels: { app: "web" } }, template },
        },
      ]);
      const scaleUrl = `/apis/apps/v1/namespaces/${ns}/deployments/web/scale`;
      const before = ok(await run(["get", "--raw", scaleUrl]), "get scale");
      const scale = JSON.parse(before);
      assert.deepEqual(
        { kind: scale.kind, spec: scale.spec, selector: scale.status.selector },
        { kind: "Scale", spec: { replicas: 1 }, selector: "app=web" },
      );
      assert.equal(typeof scale.status.replicas, "number", "status.replicas is always set");

      assert.match(
        ok(await run(["-n", ns, "scale", "deployment", "web", "--replicas=3"]), "scale"),
        /^deployment\.apps\/web scaled$/m,
      );
      assert.equal(await jsonpath("deployment", "web", "{.spec.replicas}"), "3");
      ok(
        await run(["-n", ns, "scale", "deployment/web", "--current-replicas=3", "--replicas=2"]),
        "scale with --current-replicas",
      );
      assert.equal(await jsonpath("deployment", "web", "{.spec.replicas}"), "2");
      assert.match(
        failed(
          await run(["-n", ns, "scale", "deployment/web", "--current-replicas=5", "--replicas=4"]),
          "wrong --current-replicas",
        ),
        /error: Expected replicas to be 5, was 2/,
      );
      assert.match(
        failed(
          await run([
            "-n",
            ns,
            "scale",
            "deployment/web",
            `--resource-version=${scale.metadata.resourceVersion}`,
            "--replicas=4",
          ]),
          "stale --resource-version",
        ),
        new RegExp(
          `error: Expected resource version to be ${scale.metadata.resourceVersion}, was \\d+`,
        ),
      );
      const stale = join(gantry.dataDir, `${ns}-stale-scale.json`);
      writeFileSync(stale, before);
      assert.match(
        failed(await run(["replace", "--raw", scaleUrl, "-f", stale]), "PUT of a stale Scale"),
        /Error from server \(Conflict\): Operation cannot be fulfilled on deployments\.apps "web": the object has been modified; please apply your changes to the latest version and try again/,
      );
      const table = ok(await run(["-n", ns, "get", "deployment", "web"]), "get deployment");
      assert.match(table, /^web\s+\d+\/2\s+\d+\s+\d+\s+\S+$/m);
    });

    test("scale a StatefulSet", async () => {
      await create("statefulset.yaml", [
        {
          apiVersion: "apps/v1",
          kind: "StatefulSet",
          metadata: { name: "db", namespace: ns },
          spec: {
            replicas: 1,
            serviceName: "db",
            selector: { matchLabels: { app: "db" } },
            template: {
              metadata: { labels: { app: "db" } },
              spec: { containers: [{ name: "postgres", image: "postgres:16" }] },
            },
          },
        },
      ]);
      assert.match(
        ok(await run(["-n", ns, "scale", "statefulset", "db", "--replicas=3"]), "scale sts"),
        /^statefulset\.apps\/db scaled$/m,
      );
      ok(
        await run(["-n", ns, "scale", "sts/db", "--current-replicas=3", "--replicas=4"]),
        "scale sts with --current-replicas",
      );
      assert.equal(await jsonpath("statefulset", "db", "{.spec.replicas}"), "4");
      assert.match(ok(await run(["-n", ns, "get", "sts"]), "get sts"), /^db\s+\d+\/4\s+\S+$/m);
      const scale = JSON.parse(
        ok(
          await run(["get", "--raw", `/apis/apps/v1/namespaces/${ns}/statefulsets/db/scale`]),
          "sts scale",
        ),
      );
      assert.equal(scale.status.selector, "app=db");
    });

    test("scale a ReplicaSet and a ReplicationController", async () => {
      const template = {
        metadata: { labels: { app: "cache" } },
        spec: { containers: [{ name: "redis", image: "redis:7" }] },
      };
      await create("replicas.yaml", [
        {
          apiVersion: "apps/v1",
          kind: "ReplicaSet",
          metadata: { name: "cache", namespace: ns },
          spec: { replicas: 1, selector: { matchLabels: { app: "cache" } }, template },
        },
        {
          apiVersion: "v1",
          kind: "ReplicationController",
          metadata: { name: "legacy", namespace: ns },
          spec: { replicas: 1, selector: { app: "cache" }, template },
        },
      ]);
      assert.match(
        ok(await run(["-n", ns, "scale", "rs/cache", "rc/legacy", "--replicas=2"]), "scale rs rc"),
        /^replicaset\.apps\/cache scaled\nreplicationcontroller\/legacy scaled$/m,
      );
      assert.equal(await jsonpath("replicaset", "cache", "{.spec.replicas}"), "2");
      assert.equal(await jsonpath("replicationcontroller", "legacy", "{.spec.replicas}"), "2");
      assert.match(
        failed(
          await run(["-n", ns, "scale", "rc/legacy", "--current-replicas=1", "--replicas=3"]),
          "wrong --current-replicas on an rc",
        ),
        /error: Expected replicas to be 1, was 2/,
      );
      const scale = JSON.parse(
        ok(
          await run([
            "get",
            "--raw",
            `/api/v1/namespaces/${ns}/replicationcontrollers/legacy/scale`,
          ]),
          "rc scale",
        ),
      );
      assert.equal(scale.status.selector, "app=cache");
      assert.equal(typeof scale.status.replicas, "number", "status.replicas is always set");
    });

    test("a CRD is Established at once and its custom resources print their columns", async () => {
      assert.match(
        await create("crd.yaml", [widgetCrd]),
        /customresourcedefinition\.apiextensions\.k8s\.io\/widgets\.example\.com created/,
      );
      assert.match(
        ok(
          await run([
            "wait",
            "--for=condition=Established",
            "crd/widgets.example.com",
            "--timeout=10s",
          ]),
          "wait Established",
        ),
        /condition met/,
      );
      assert.equal(
        ok(
          await run([
            "get",
            "crd",
            "widgets.example.com",
            "-o",
            'jsonpath={.status.conditions[?(@.type=="NamesAccepted")].reason}',
          ]),
          "NamesAccepted",
        ),
        "NoConflicts",
      );
      const crds = ok(await run(["get", "crd"]), "get crd");
      assert.match(crds, /^NAME\s+CREATED AT$/m);
      assert.match(crds, /^widgets\.example\.com\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);

      const widget = (name: string, spec: object): object => ({
        apiVersion: "example.com/v1",
        kind: "Widget",
        metadata: { name, namespace: ns },
        spec,
      });
      await create("widgets.yaml", [
        widget("w1", { size: "small" }),
        widget("w2", { size: "large", replicas: 2, note: "hello" }),
      ]);
      const table = ok(await run(["-n", ns, "get", "widgets"]), "get widgets");
      assert.match(table, /^NAME\s+SIZE\s+REPLICAS\s+AGE$/m);
      assert.match(table, /^w1\s+small\s+1\s+\S+$/m);
      assert.match(table, /^w2\s+large\s+2\s+\S+$/m);
      const wide = ok(await run(["-n", ns, "get", "wd", "-o", "wide"]), "get wd -o wide");
      assert.match(wide, /^NAME\s+SIZE\s+REPLICAS\s+AGE\s+NOTE$/m);
      assert.match(wide, /^w2\s+large\s+2\s+\S+\s+hello$/m);
      const all = ok(await run(["get", "widgets", "-A", "-l", "!missing"]), "get widgets -A");
      assert.match(all, /^NAMESPACE\s+NAME\s+SIZE\s+REPLICAS\s+AGE$/m);
      assert.match(all, new RegExp(`^${ns}\\s+w1\\s+small\\s+1\\s+\\S+$`, "m"));

      const invalid = failed(
        await run(["create", "-f", file("bad-widget.yaml", [widget("bad", { size: "huge" })])]),
        "invalid widget",
      );
      assert.match(
        invalid,
        /The Widget "bad" is invalid: spec\.size: Unsupported value: "huge": supported values: "small", "large"/,
      );
      if (version !== "1.27") {
        const explain = ok(await run(["explain", "widgets.spec.size"]), "explain");
        assert.match(explain, /KIND:\s+Widget/);
        assert.match(explain, /FIELD:\s+size\s+<string>/);
        assert.match(explain, /How big the widget is\./);
      }
    });

    test("scale a custom resource through its scale subresource", async () => {
      assert.match(
        ok(await run(["-n", ns, "scale", "widget", "w1", "--replicas=3"]), "scale widget"),
        /^widget\.example\.com\/w1 scaled$/m,
      );
      assert.equal(await jsonpath("widget", "w1", "{.spec.replicas}"), "3");
      ok(
        await run(["-n", ns, "scale", "widget/w1", "--current-replicas=3", "--replicas=5"]),
        "scale widget with --current-replicas",
      );
      ok(
        await run([
          "-n",
          ns,
          "patch",
          "widget",
          "w1",
          "--subresource=status",
          "--type=merge",
          "-p",
          '{"status":{"replicas":4,"selector":"app=w1"}}',
        ]),
        "patch status",
      );
      const scale = JSON.parse(
        ok(
          await run(["get", "--raw", `/apis/example.com/v1/namespaces/${ns}/widgets/w1/scale`]),
          "widget scale",
        ),
      );
      assert.deepEqual(
        { spec: scale.spec, status: scale.status },
        { spec: { replicas: 5 }, status: { replicas: 4, selector: "app=w1" } },
      );
      const tooMany = failed(
        await run(["-n", ns, "scale", "widget", "w1", "--replicas=11"]),
        "scale beyond the schema",
      );
      assert.match(tooMany, /spec\.replicas in body should be less than or equal to 10/);
    });

    test("wait --for=condition on a custom resource's status", async () => {
      const waiting = run([
        "-n",
        ns,
        "wait",
        "--for=condition=Ready",
        "widget/w2",
        "--timeout=20s",
      ]);
      ok(
        await run([
          "-n",
          ns,
          "patch",
          "widget",
          "w2",
          "--subresource=status",
          "--type=merge",
          "-p",
          '{"status":{"conditions":[{"type":"Ready","status":"True"}]}}',
        ]),
        "set Ready",
      );
      assert.match(ok(await waiting, "wait Ready"), /^widget\.example\.com\/w2 condition met$/m);
    });

    test("deleting the CRD deletes its custom resources", async () => {
      assert.match(
        ok(await run(["delete", "crd", "widgets.example.com", "--timeout=20s"]), "delete crd"),
        /customresourcedefinition\.apiextensions\.k8s\.io "widgets\.example\.com" deleted/,
      );
      assert.match(
        failed(await run(["get", "crd", "widgets.example.com"]), "get deleted crd"),
        /customresourcedefinitions\.apiextensions\.k8s\.io "widgets\.example\.com" not found/,
      );
      assert.match(
        failed(
          await run(["get", "--raw", `/apis/example.com/v1/namespaces/${ns}/widgets`]),
          "list widgets",
        ),
        /NotFound/,
      );
    });
  });
}
