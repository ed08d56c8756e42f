import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Event, ReplicaSet } from "../../api/index.ts";
import { eventually, type GantryProcess, startGantry } from "../../testing/index.ts";
import { cliFor, current, type List, oldest, pollMs } from "../../testing/kubectl-scenarios.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

const restrictedReasons =
  "allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile";

/** A pod whose one container `c` satisfies the restricted standard. */
function compliantPod(name: string) {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name },
    spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
      containers: [
        {
          name: "c",
          image: "nginx",
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
        },
      ],
    },
  };
}

const privilegedPod = `apiVersion: v1
kind: Pod
metadata:
  name: priv
spec:
  containers:
  - name: c
    image: nginx
    securityContext:
      privileged: true
`;

// Pod Security admission driven by real kubectl, oldest and newest supported clients.
describe("gantry up: PodSecurity admission with kubectl", () => {
  let gantry: GantryProcess;
  before(async () => {
    gantry = await startGantry({
      storage: "memory",
      extraArgs: ["--nodes", "1"],
      timeoutMs: 60_000,
    });
  });
  after(async () => {
    await gantry[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  for (const version of [oldest, current]) {
    const cli = cliFor(() => gantry, version);
    const ns = `team-a-${version.replace(".", "")}`;

    test(`kubectl ${version}: labelling a namespace enforce=restricted warns about its pods; dry run changes nothing`, async () => {
      await cli.ok(["create", "namespace", ns]);
      await cli.ok(["run", "web", "--image=nginx", "-n", ns]);
      const warnings =
        `Warning: existing pods in namespace "${ns}" violate the new PodSecurity enforce level "restricted:latest"\n` +
        `Warning: web: ${restrictedReasons}\n`;
      const label = ["label", "ns", ns, "pod-security.kubernetes.io/enforce=restricted"];
      await eventually(
        async () => {
          const dry = await cli.run([...label, "--dry-run=server"]);
          assert.equal(dry.code, 0, dry.stderr);
          assert.equal(dry.stdout, `namespace/${ns} labeled (server dry run)\n`);
          assert.equal(dry.stderr, warnings);
        },
        10_000,
        pollMs,
      );
      const labels = await cli.ok(["get", "ns", ns, "-o", "jsonpath={.metadata.labels}"]);
      assert.doesNotMatch(labels, /pod-security/, "a server dry run stores nothing");
      const real = await cli.run(label);
      assert.equal(real.code, 0, real.stderr);
      assert.equal(real.stdout, `namespace/${ns} labeled\n`);
      assert.equal(real.stderr, warnings);
    });

    test(`kubectl ${version}: a privileged pod is refused with upstream's message, a compliant one runs`, async () => {
      const refused = await cli.run(["create", "-n", ns, "-f", "-"], privilegedPod);
      assert.equal(refused.code, 1);
      assert.equal(
        refused.stderr,
        'Error from server (Forbidden): error when creating "STDIN": pods "priv" is forbidden: violates PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")\n',
      );
      const created = await cli.run(
        ["apply", "-n", ns, "-f", "-"],
        JSON.stringify(compliantPod("good")),
      );
      assert.equal(created.code, 0, created.stderr);
      assert.equal(created.stderr, "", "a compliant pod draws no warning");
      await eventually(
        async () => {
          const phase = await cli.ok([
            "get",
            "pod",
            "good",
            "-n",
            ns,
            "-o",
            "jsonpath={.status.phase}",
          ]);
          assert.equal(phase, "Running");
        },
        30_000,
        pollMs,
      );
    });

    test(`kubectl ${version}: warn mode prints Warning: would violate PodSecurity and admits the pod`, async () => {
      const warnNs = `team-b-${version.replace(".", "")}`;
      await cli.ok(["create", "namespace", warnNs]);
      await cli.ok(["label", "ns", warnNs, "pod-security.kubernetes.io/warn=baseline"]);
      await eventually(
        async () => {
          const r = await cli.run(["create", "-n", warnNs, "-f", "-"], privilegedPod);
          assert.equal(r.code, 0, r.stderr);
          assert.equal(r.stdout, "pod/priv created\n");
          assert.equal(
            r.stderr,
            'Warning: would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)\n',
          );
        },
        10_000,
        pollMs,
      );
    });

    test(`kubectl ${version}: a Deployment is accepted with a warning, its ReplicaSet cannot create pods`, async () => {
      await cli.ok(["label", "ns", ns, "pod-security.kubernetes.io/warn=restricted"]);
      await eventually(
        async () => {
          const r = await cli.run(["create", "deployment", "api", "--image=nginx", "-n", ns]);
          assert.equal(r.code, 0, r.stderr);
          assert.equal(r.stdout, "deployment.apps/api created\n");
          assert.equal(
            r.stderr,
            'Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")\n',
          );
        },
        10_000,
        pollMs,
      );
      const forbidden =
        /^pods "api-[a-z0-9]+-[a-z0-9]{5}" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false \(container "nginx" must set securityContext.allowPrivilegeEscalation=false\), /;
      await eventually(
        async () => {
          const sets = await cli.get<List<ReplicaSet>>(["rs", "-n", ns, "-l", "app=api"]);
          const failure = sets.items[0]?.status?.conditions?.find(
            (c) => c.type === "ReplicaFailure",
          );
          assert.equal(failure?.status, "True", JSON.stringify(sets.items[0]?.status));
          assert.equal(failure?.reason, "FailedCreate");
          assert.match(failure?.message ?? "", forbidden);
          const events = await cli.get<List<Event>>([
            "events",
            "-n",
            ns,
            "--field-selector",
            "reason=FailedCreate",
          ]);
          const message = events.items[0]?.message ?? "";
          assert.match(message.replace(/^Error creating: /, ""), forbidden);
          assert.ok(message.startsWith("Error creating: "), message);
        },
        30_000,
        pollMs,
      );
      const pods = await cli.ok(["get", "pods", "-n", ns, "-l", "app=api", "-o", "name"]);
      assert.equal(pods, "", "no pod of the Deployment exists");
    });
  }

  test("kubectl 1.33: pods the queueing webhook gates are checked at create like any other", async () => {
    const cli = cliFor(() => gantry, current);
    const ns = "team-a-133";
    const queued = (pod: object) => ({
      ...pod,
      metadata: { name: "queued", labels: { "kueue.x-k8s.io/queue-name": "user-queue" } },
    });
    const refused = await cli.run(
      ["create", "-n", ns, "-f", "-"],
      JSON.stringify(
        queued({
          apiVersion: "v1",
          kind: "Pod",
          spec: { containers: [{ name: "c", image: "nginx" }] },
        }),
      ),
    );
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(
      refused.stderr,
      /^Error from server \(Forbidden\): error when creating "STDIN": pods "queued" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false /,
    );
    await cli.ok(["create", "-n", ns, "-f", "-"], JSON.stringify(queued(compliantPod("queued"))));
    const gates = await cli.ok([
      "get",
      "pod",
      "queued",
      "-n",
      ns,
      "-o",
      "jsonpath={.spec.schedulingGates[*].name}",
    ]);
    assert.equal(gates, "kueue.x-k8s.io/admission", "the webhook gated the admitted pod");
  });
});

// `--admission-control-config-file` sets PodSecurity's defaults and exemptions, and the audit
// log records PodSecurity's annotations on the pod's event (the policy enforced, audit-mode
// violations, exemptions), whether the pod was admitted or refused.
describe("gantry up: PodSecurity configuration file and audit annotations", () => {
  let gantry: GantryProcess;
  const scratch = mkdtempSync(join(tmpdir(), "gantry-psa-audit-"));
  const log = join(scratch, "audit.log");
  const cli = cliFor(() => gantry, current);
  before(async () => {
    const policy = join(scratch, "policy.yaml");
    writeFileSync(policy, "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n");
    const admission = join(scratch, "admission.yaml");
    writeFileSync(
      admission,
      `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.k8s.io/v1
    kind: PodSecurityConfiguration
    defaults:
      enforce: baseline
    exemptions:
      namespaces: [exempt]
`,
    );
    gantry = await startGantry({
      storage: "memory",
      extraArgs: [
        "--nodes",
        "1",
        "--audit-policy-file",
        policy,
        "--audit-log-path",
        log,
        "--admission-control-config-file",
        admission,
      ],
      timeoutMs: 60_000,
    });
  });
  after(async () => {
    await gantry[Symbol.asyncDispose]();
    rmSync(scratch, { recursive: true, force: true });
  });
  ensureNoLeaksAfterSuite();

  test("the configured default enforces baseline where no label says otherwise; exempt namespaces pass", async () => {
    await cli.ok(["create", "namespace", "unlabelled"]);
    await cli.ok(["create", "namespace", "exempt"]);
    await eventually(
      async () => {
        const refused = await cli.run(["create", "-n", "unlabelled", "-f", "-"], privilegedPod);
        assert.equal(refused.code, 1, refused.stdout);
        assert.equal(
          refused.stderr,
          'Error from server (Forbidden): error when creating "STDIN": pods "priv" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)\n',
        );
        const admitted = await cli.run(["create", "-n", "exempt", "-f", "-"], privilegedPod);
        assert.equal(admitted.code, 0, admitted.stderr);
        assert.equal(admitted.stderr, "");
      },
      10_000,
      pollMs,
    );
    await eventually(
      () => {
        const exempt = podCreateEvents(log).find((e) => e.objectRef.namespace === "exempt");
        assert.equal(exempt?.annotations["pod-security.kubernetes.io/exempt"], "namespace");
      },
      10_000,
      pollMs,
    );
  });

  test("an admitted and a refused pod carry enforce-policy and audit-violations", async () => {
    await cli.ok(["create", "namespace", "audited"]);
    await cli.ok([
      "label",
      "ns",
      "audited",
      "pod-security.kubernetes.io/enforce=baseline",
      "pod-security.kubernetes.io/audit=restricted",
    ]);
    await eventually(
      async () => {
        const refused = await cli.run(["create", "-n", "audited", "-f", "-"], privilegedPod);
        assert.equal(refused.code, 1, refused.stderr);
      },
      10_000,
      pollMs,
    );
    await cli.ok(["apply", "-n", "audited", "-f", "-"], JSON.stringify(compliantPod("fine")));
    await cli.ok(["run", "plain", "--image=nginx", "-n", "audited"]);
    await eventually(
      () => {
        const events = podCreateEvents(log).filter((e) => e.objectRef.namespace === "audited");
        const byName = (name: string) => events.find((e) => e.objectRef.name === name);
        assert.equal(byName("priv")?.responseStatus.code, 403);
        assert.equal(
          byName("priv")?.annotations["pod-security.kubernetes.io/enforce-policy"],
          "baseline:latest",
        );
        assert.match(
          byName("priv")?.annotations["pod-security.kubernetes.io/audit-violations"] ?? "",
          /^would violate PodSecurity "restricted:latest": privileged \(container "c" must not set securityContext.privileged=true\), /,
        );
        assert.equal(byName("fine")?.responseStatus.code, 201);
        assert.equal(
          byName("fine")?.annotations["pod-security.kubernetes.io/audit-violations"],
          undefined,
        );
        assert.equal(
          byName("plain")?.annotations["pod-security.kubernetes.io/audit-violations"],
          `would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "plain" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "plain" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "plain" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "plain" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`,
        );
      },
      10_000,
      pollMs,
    );
  });
});

interface PodAuditEvent {
  readonly objectRef: { readonly name: string; readonly namespace: string };
  readonly responseStatus: { readonly code: number };
  readonly annotations: Readonly<Record<string, string>>;
}

/** The ResponseComplete events of pod creates in the audit log at `path`. */
function podCreateEvents(path: string): PodAuditEvent[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.includes('"resource":"pods"') && line.includes('"verb":"create"'))
    .map((line) => JSON.parse(line) as PodAuditEvent & { stage: string })
    .filter((e) => e.stage === "ResponseComplete");
}
