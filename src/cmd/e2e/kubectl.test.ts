import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  type GantryProcess,
  type KubectlResult,
  kubectl,
  kubectlOk as ok,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

for (const version of ["1.27", "1.30", "1.33"]) {
  describe(`kubectl ${version} against gantry up`, () => {
    let gantry: GantryProcess;
    const ns = `e2e-${version.replace(".", "-")}`;
    const run = (args: string[], input?: string): Promise<KubectlResult> =>
      kubectl(gantry, version, args, input === undefined ? {} : { input });
    const file = (name: string, text: string): string => {
      const path = join(gantry.dataDir, `${ns}-${name}`);
      writeFileSync(path, text);
      return path;
    };

    before(async () => {
      gantry = await startGantry();
    });
    after(async () => {
      await gantry[Symbol.asyncDispose]();
    });
    ensureNoLeaksAfterSuite();

    test("version prints the server version", async () => {
      const out = ok(await run(["version"]), "kubectl version");
      // 1.27 prints the whole version.Info; later versions print the git version alone.
      assert.match(out, /Server Version: (v1\.35\.0|version\.Info\{.*GitVersion:"v1\.35\.0")/);
    });

    test("api-resources and api-versions list the served kinds", async () => {
      const resources = ok(await run(["api-resources"]), "api-resources");
      for (const name of [
        "pods",
        "configmaps",
        "poddisruptionbudgets",
        "workloads",
        "podgroups",
        "leases",
      ]) {
        assert.match(resources, new RegExp(`^${name}\\s`, "m"), `api-resources lists ${name}`);
      }
      const versions = ok(await run(["api-versions"]), "api-versions");
      assert.match(versions, /^scheduling\.k8s\.io\/v1alpha1$/m);
      assert.match(versions, /^v1$/m);
    });

    test("create namespace and configmap (protobuf bodies on 1.32+)", async () => {
      assert.match(
        ok(await run(["create", "namespace", ns]), "create ns"),
        new RegExp(`namespace/${ns} created`),
      );
      assert.match(
        ok(
          await run(["-n", ns, "create", "configmap", "settings", "--from-literal=mode=fast"]),
          "create cm",
        ),
        /configmap\/settings created/,
      );
      const wide = ok(await run(["-n", ns, "get", "configmaps", "-o", "wide"]), "get cm");
      assert.match(wide, /^NAME\s+DATA\s+AGE/m);
      assert.match(wide, /^settings\s+1\s+/m);
      assert.equal(
        ok(
          await run(["-n", ns, "get", "cm", "settings", "-o", "jsonpath={.data.mode}"]),
          "jsonpath",
        ),
        "fast",
      );
      // A match, not the whole list: controllers may add their own config maps to a namespace
      // (upstream's root CA publisher writes kube-root-ca.crt into every one).
      assert.match(
        ok(await run(["-n", ns, "get", "cm", "-o", "name"]), "-o name"),
        /^configmap\/settings$/m,
      );
      const json = JSON.parse(
        ok(await run(["-n", ns, "get", "cm", "settings", "-o", "json"]), "-o json"),
      );
      assert.equal(json.metadata.namespace, ns);
      assert.match(json.metadata.resourceVersion, /^\d+$/);
    });

    test("apply -f creates, leaves unchanged, then configures", async () => {
      const manifest = (image: string): string =>
        `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: ${ns}\n  labels: {app: web}\nspec:\n  containers:\n  - name: nginx\n    image: ${image}\n`;
      const path = file("pod.yaml", manifest("nginx:1.25"));
      assert.match(ok(await run(["apply", "-f", path]), "apply 1"), /pod\/web created/);
      // The scheduler binds the pod and a kubelet runs it; the status it writes is no part of
      // what apply compares, so the next apply still finds nothing to change.
      ok(
        await run(["-n", ns, "wait", "--for=condition=Ready", "pod/web", "--timeout=30s"]),
        "wait Ready",
      );
      const pods = ok(await run(["-n", ns, "get", "pods"]), "get pods");
      assert.match(pods, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/m);
      assert.match(pods, /^web\s+1\/1\s+Running\s+0\s+\S+$/m);
      assert.match(ok(await run(["apply", "-f", path]), "apply 2"), /pod\/web unchanged/);
      writeFileSync(path, manifest("nginx:1.26"));
      assert.match(ok(await run(["apply", "-f", path]), "apply 3"), /pod\/web configured/);
      assert.equal(
        ok(
          await run(["-n", ns, "get", "pod", "web", "-o", "jsonpath={.spec.containers[0].image}"]),
          "image",
        ),
        "nginx:1.26",
      );
    });

    test("server-side apply reports a conflict and --force-conflicts takes ownership", async () => {
      const path = file(
        "ssa.yaml",
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\n  namespace: ${ns}\ndata:\n  a: "1"\n`,
      );
      assert.match(
        ok(await run(["apply", "--server-side", "-f", path]), "ssa"),
        /configmap\/ssa serverside-applied/,
      );
      ok(
        await run([
          "-n",
          ns,
          "patch",
          "configmap",
          "ssa",
          "--type=merge",
          "-p",
          '{"data":{"a":"2"}}',
        ]),
        "patch",
      );
      const conflict = await run(["apply", "--server-side", "-f", path]);
      assert.equal(conflict.code, 1);
      assert.match(conflict.stderr, /conflict with "kubectl-patch"/);
      assert.match(conflict.stderr, /\.data\.a/);
      ok(await run(["apply", "--server-side", "--force-conflicts", "-f", path]), "force");
      assert.equal(
        ok(await run(["-n", ns, "get", "cm", "ssa", "-o", "jsonpath={.data.a}"]), "value"),
        "1",
      );
    });

    test("patch with strategic, merge and JSON patches; label and annotate", async () => {
      ok(
        await run([
          "-n",
          ns,
          "patch",
          "pod",
          "web",
          "-p",
          '{"metadata":{"labels":{"tier":"front"}}}',
        ]),
        "smp",
      );
      ok(
        await run([
          "-n",
          ns,
          "patch",
          "pod",
          "web",
          "--type=merge",
          "-p",
          '{"metadata":{"annotations":{"note":"x"}}}',
        ]),
        "merge",
      );
      ok(
        await run([
          "-n",
          ns,
          "patch",
          "pod",
          "web",
          "--type=json",
          "-p",
          '[{"op":"replace","path":"/metadata/labels/tier","value":"back"}]',
        ]),
        "json",
      );
      const bad = await run([
        "-n",
        ns,
        "patch",
        "pod",
        "web",
        "--type=json",
        "-p",
        '[{"op":"replace","path":"/metadata/labels/nope","value":"x"}]',
      ]);
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /replace operation does not apply/);
      assert.match(
        ok(await run(["-n", ns, "label", "pod", "web", "extra=yes"]), "label"),
        /pod\/web labeled/,
      );
      assert.match(
        ok(await run(["-n", ns, "annotate", "pod", "web", "owner=me"]), "annotate"),
        /pod\/web annotated?$/m,
      ); // 1.27 prints "annotate"
      const labels = ok(
        await run(["-n", ns, "get", "pods", "-l", "tier=back,extra", "--show-labels"]),
        "get -l",
      );
      assert.match(labels, /app=web,extra=yes,tier=back/);
      const none = ok(await run(["-n", ns, "get", "pods", "-l", "tier in (front)"]), "get -l none");
      assert.equal(none.trim(), "");
    });

    test("field selectors and chunked lists", async () => {
      for (let i = 0; i < 5; i++) {
        ok(
          await run(["-n", ns, "create", "configmap", `chunk-${i}`, "--from-literal=i=x"]),
          "create chunk",
        );
      }
      const chunked = ok(
        await run(["-n", ns, "get", "cm", "--chunk-size=2", "-o", "name"]),
        "chunked",
      );
      for (let i = 0; i < 5; i++) assert.match(chunked, new RegExp(`configmap/chunk-${i}$`, "m"));
      const selected = ok(
        await run([
          "-n",
          ns,
          "get",
          "cm",
          "--field-selector",
          "metadata.name=chunk-3",
          "-o",
          "name",
        ]),
        "fs",
      );
      assert.equal(selected.trim(), "configmap/chunk-3");
      // A pod that stays Pending: no scheduler serves gantry-e2e-unscheduled, so it is never
      // bound and nothing writes its status. `web` is Running (the apply case waited for it).
      ok(
        await run([
          "create",
          "-f",
          file(
            "parked.yaml",
            `apiVersion: v1\nkind: Pod\nmetadata:\n  name: parked\n  namespace: ${ns}\nspec:\n  schedulerName: gantry-e2e-unscheduled\n  containers:\n  - name: nginx\n    image: nginx:1.25\n`,
          ),
        ]),
        "create parked",
      );
      const pending = ok(
        await run(["get", "pods", "-A", "--field-selector", "status.phase=Pending", "-o", "name"]),
        "pending -A",
      );
      assert.match(pending, /^pod\/parked$/m);
      assert.doesNotMatch(pending, /^pod\/web$/m);
      const running = ok(
        await run([
          "-n",
          ns,
          "get",
          "pods",
          "--field-selector",
          "status.phase=Running",
          "-o",
          "name",
        ]),
        "running",
      );
      assert.equal(running, "pod/web\n");
      const notRunning = ok(
        await run([
          "-n",
          ns,
          "get",
          "pods",
          "--field-selector",
          "status.phase!=Running",
          "-o",
          "name",
        ]),
        "not running",
      );
      assert.equal(notRunning, "pod/parked\n");
      const unsupported = await run(["-n", ns, "get", "cm", "--field-selector", "data.i=x"]);
      assert.equal(unsupported.code, 1);
      assert.match(unsupported.stderr, /"data\.i" is not a known field selector/);
    });

    test("replace and a stale resourceVersion conflict", async () => {
      const out = JSON.parse(
        ok(await run(["-n", ns, "get", "cm", "settings", "-o", "json"]), "get"),
      );
      out.data.mode = "slow";
      const path = file("replace.json", JSON.stringify(out));
      assert.match(
        ok(await run(["replace", "-f", path]), "replace"),
        /configmap\/settings replaced/,
      );
      const stale = await run(["replace", "-f", path]);
      assert.equal(stale.code, 1);
      assert.match(
        stale.stderr,
        /the object has been modified; please apply your changes to the latest version and try again/,
      );
    });

    test("invalid names get the 422 with the field path", async () => {
      const result = await run(["-n", ns, "create", "configmap", "Bad_Name", "--from-literal=a=b"]);
      assert.equal(result.code, 1);
      assert.match(
        result.stderr,
        /metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
      );
    });

    test("delete waits for finalizers; wait --for=delete and --for=jsonpath", async () => {
      const path = file(
        "fin.yaml",
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fin\n  namespace: ${ns}\n  finalizers: [example.com/hold]\ndata: {a: b}\n`,
      );
      ok(await run(["create", "-f", path]), "create fin");
      ok(
        await run([
          "-n",
          ns,
          "wait",
          "--for=jsonpath={.data.a}=b",
          "configmap/fin",
          "--timeout=10s",
        ]),
        "wait jsonpath",
      );
      ok(await run(["-n", ns, "delete", "configmap", "fin", "--wait=false"]), "delete");
      const held = JSON.parse(
        ok(await run(["-n", ns, "get", "cm", "fin", "-o", "json"]), "get held"),
      );
      assert.ok(held.metadata.deletionTimestamp, "the object waits with a deletionTimestamp");
      const waiting = run(["-n", ns, "wait", "--for=delete", "configmap/fin", "--timeout=20s"]);
      ok(
        await run([
          "-n",
          ns,
          "patch",
          "configmap",
          "fin",
          "--type=merge",
          "-p",
          '{"metadata":{"finalizers":null}}',
        ]),
        "release",
      );
      ok(await waiting, "wait --for=delete");
      const gone = await run(["-n", ns, "get", "cm", "fin"]);
      assert.equal(gone.code, 1);
      assert.match(gone.stderr, /configmaps "fin" not found/);
    });

    test("delete -l and --grace-period=0 --force", async () => {
      assert.match(
        ok(
          await run([
            "-n",
            ns,
            "delete",
            "cm",
            "-l",
            "!nothing-has-this",
            "--field-selector",
            "metadata.name=chunk-0",
          ]),
          "delete -l",
        ),
        /configmap "chunk-0" deleted/,
      );
      const forced = await run(["-n", ns, "delete", "pod", "web", "--grace-period=0", "--force"]);
      ok(forced, "force delete");
      assert.match(forced.stdout, /pod "web" force deleted/);
    });

    test("explain reads the published OpenAPI schema (1.27 loads /openapi/v2 first)", async () => {
      const out = ok(await run(["explain", "pods.spec.containers.image"]), "explain");
      assert.match(out, /KIND:\s+Pod/);
      assert.match(out, /FIELD:\s+image/);
    });

    test("logs prints what the pod declared (gantry.dev/log), with --tail and --timestamps", async () => {
      ok(
        await run([
          "-n",
          ns,
          "run",
          "talker",
          "--image=busybox",
          "--annotations=gantry.dev/log=starting\nready\nserving",
        ]),
        "run talker",
      );
      ok(
        await run(["-n", ns, "wait", "--for=condition=Ready", "pod/talker", "--timeout=60s"]),
        "wait Ready",
      );
      assert.equal(
        ok(await run(["-n", ns, "logs", "talker"]), "logs"),
        "starting\nready\nserving\n",
      );
      assert.equal(ok(await run(["-n", ns, "logs", "talker", "--tail=1"]), "tail"), "serving\n");
      assert.match(
        ok(await run(["-n", ns, "logs", "talker", "--tail=1", "--timestamps"]), "timestamps"),
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z serving\n$/,
      );
      const previous = await run(["-n", ns, "logs", "talker", "--previous"]);
      assert.notEqual(previous.code, 0, "no previous instance");
      assert.match(
        previous.stderr,
        /Error from server \(BadRequest\): previous terminated container "talker" in pod "talker" not found/,
      );
      const badTail = await run([
        "get",
        "--raw",
        `/api/v1/namespaces/${ns}/pods/talker/log?tailLines=-1`,
      ]);
      assert.match(
        badTail.stderr,
        /PodLogOptions "talker" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0/,
      );
    });

    test("exec and port-forward say that emulated containers run no processes", async () => {
      const exec = await run(["-n", ns, "exec", "talker", "--", "ls"]);
      assert.notEqual(exec.code, 0, "exec fails");
      assert.match(
        exec.stderr,
        /exec is not available for pod talker: gantry's emulated containers run no processes/,
      );
      const forward = await run(["-n", ns, "port-forward", "pod/talker", "0:80"]);
      assert.notEqual(forward.code, 0, "port-forward fails");
      assert.match(forward.stderr, /portforward is not available for pod talker/);
    });

    test("create cronjob, get cronjobs, create job --from=cronjob (protobuf bodies on 1.32+)", async () => {
      ok(
        await run([
          "-n",
          ns,
          "create",
          "cronjob",
          "nightly",
          "--image=busybox",
          "--schedule=0 3 * * *",
          "--",
          "echo",
          "hi",
        ]),
        "create cronjob",
      );
      const table = ok(await run(["-n", ns, "get", "cronjobs"]), "get cronjobs");
      assert.match(
        table,
        /^NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE\s*$/m,
      );
      assert.match(table, /^nightly\s+0 3 \* \* \*\s+<none>\s+False\s+0\s+<none>\s+\S+\s*$/m);
      ok(await run(["-n", ns, "create", "job", "by-hand", "--from=cronjob/nightly"]), "--from");
      const job = JSON.parse(
        ok(await run(["-n", ns, "get", "job", "by-hand", "-o", "json"]), "get job"),
      );
      assert.equal(job.metadata.annotations["cronjob.kubernetes.io/instantiate"], "manual");
      assert.equal(job.metadata.ownerReferences[0].kind, "CronJob");
      assert.deepEqual(
        job.spec.template.spec.containers[0].args ?? job.spec.template.spec.containers[0].command,
        ["echo", "hi"],
      );
      const bad = await run([
        "-n",
        ns,
        "create",
        "cronjob",
        "bad",
        "--image=busybox",
        "--schedule=61 * * * *",
      ]);
      assert.notEqual(bad.code, 0, "a minute of 61 is refused");
      assert.match(
        bad.stderr,
        /CronJob\.batch "bad" is invalid: spec\.schedule: Invalid value: "61 \* \* \* \*": end of range \(61\) above maximum \(59\): 61/,
      );
    });

    test("kind: List files are created, and validated against /openapi/v2, without flags", async () => {
      const list = (suffix: string, extra: string): string =>
        `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: listed-a${suffix}, namespace: ${ns}}\n${extra}- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: listed-b${suffix}, namespace: ${ns}}\n`;
      const created = ok(
        await run(["create", "-f", file("list.yaml", list("", ""))]),
        "create -f List",
      );
      assert.match(created, /configmap\/listed-a created/);
      assert.match(created, /configmap\/listed-b created/);
      // A List has no fieldValidation in the v3 documents, so kubectl validates its items itself
      // against the Swagger 2.0 definitions, with the message it gives on a real cluster.
      const bad = await run(["apply", "-f", file("bad-list.yaml", list("-2", "  bogus: 1\n"))]);
      assert.notEqual(bad.code, 0, "an unknown field is refused");
      assert.match(
        bad.stderr,
        /error validating data: ValidationError\(ConfigMap\): unknown field "bogus" in io\.k8s\.api\.core\.v1\.ConfigMap/,
      );
    });
  });
}
