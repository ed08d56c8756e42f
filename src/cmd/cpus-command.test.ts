import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { eventually, requestGantry, runGantry, startGantry } from "../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { runCpusCommand } from "./cpus-command.ts";

ensureNoLeaksInEachTest();

async function run(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCpusCommand(args, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  });
  return { code, out, err };
}

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), "gantry-cpus-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const pod = (name: string, cpu: string, extra = ""): string => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, uid: uid-${name}}
spec:
  containers:
  - name: app
    image: nginx
    resources:
      limits: {cpu: "${cpu}", memory: 1Gi}
${extra}`;

const takeCases = [
  {
    name: "16 CPUs with the uncore option land in one L3 of a 2-socket EPYC",
    args: [
      "--topology",
      "amd-epyc-9654-2s",
      "--count",
      "16",
      "--options",
      "prefer-align-cpus-by-uncorecache=true",
    ],
    want: { code: 0, out: "0-7,192-199\n" },
  },
  {
    name: "the KEP's alias name works the same",
    args: [
      "--topology",
      "amd-epyc-9654-2s",
      "--count",
      "16",
      "--options",
      "align-cpus-by-uncorecache=true",
      "--available",
      "2-383",
    ],
    want: { code: 0, out: "8-15,200-207\n" },
  },
  {
    name: "spread takes one thread per core",
    args: [
      "--topology",
      "dual-socket-ht",
      "--count",
      "3",
      "--options",
      "distribute-cpus-across-cores=true",
    ],
    want: { code: 0, out: "0,2,4\n" },
  },
  {
    name: "too many CPUs fails with upstream's message",
    args: ["--topology", "single-socket-ht", "--count", "9"],
    want: {
      code: 1,
      err: "not enough cpus available to satisfy request: requested=9, available=8\n",
    },
  },
  {
    name: "conflicting options fail with upstream's message",
    args: [
      "--topology",
      "single-socket-ht",
      "--count",
      "2",
      "--options",
      "prefer-align-cpus-by-uncorecache=true,distribute-cpus-across-numa=true",
    ],
    want: {
      code: 1,
      err: "static policy options prefer-align-cpus-by-uncorecache and distribute-cpus-across-numa can not be used at the same time\n",
    },
  },
  {
    name: "an unknown topology is a usage error",
    args: ["--topology", "no-such-machine", "--count", "2"],
    want: { code: 2 },
  },
] as const;

for (const c of takeCases) {
  test(`gantry cpus take: ${c.name}`, async () => {
    const got = await run(["take", ...c.args]);
    assert.equal(got.code, c.want.code, got.err);
    if ("out" in c.want) assert.equal(got.out, c.want.out);
    if ("err" in c.want) assert.equal(got.err, c.want.err);
  });
}

test("gantry cpus take: --explain names the L3 groups taken", async () => {
  const got = await run([
    "take",
    "--topology",
    "split-l3-2s-16c-smt2",
    "--count",
    "24",
    "--options",
    "prefer-align-cpus-by-uncorecache=true",
    "--explain",
  ]);
  assert.equal(got.out, "0-11,32-43\n");
  assert.equal(
    got.err,
    [
      "L3 (uncore) cache 0: 0-7,32-39 (needs 24 ≥ its 16 CPUs, all free) [L3 0; NUMA 0; socket 0]",
      "part of L3 (uncore) cache 1: 8-11,40-43 (the lowest 4 core(s) with free CPUs in it hold exactly the 8 CPUs needed) [L3 1; NUMA 0; socket 0]",
      "result: 0-11,32-43 [L3 0,1; NUMA 0; socket 0]",
      "",
    ].join("\n"),
  );
});

test("gantry cpus take: a flat topology file is read as the kubelet would see it", async (t) => {
  const dir = tempDir(t);
  const file = join(dir, "flat.json");
  const cpus = Array.from({ length: 8 }, (_, cpu) => ({
    cpu,
    core: cpu % 4,
    socket: 0,
    numa: 0,
    uncore: cpu % 4 < 2 ? 0 : 1,
  }));
  writeFileSync(file, JSON.stringify({ cpus }));
  const got = await run([
    "take",
    "--topology",
    file,
    "--count",
    "3",
    "--available",
    "1-7",
    "--options",
    "prefer-align-cpus-by-uncorecache=true",
  ]);
  assert.deepEqual(got, { code: 0, out: "1,4-5\n", err: "" });
});

test("gantry cpus allocate: prints the kubelet's checkpoint and starts from one", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, "a.yaml"), pod("a", "4"));
  writeFileSync(join(dir, "b.yaml"), pod("b", "2"));
  const first = await run([
    "allocate",
    "--topology",
    "single-socket-ht",
    "--reserved-count",
    "1",
    "--pod",
    join(dir, "a.yaml"),
  ]);
  assert.equal(first.code, 0, first.err);
  const checkpoint = JSON.parse(first.out) as { entries: unknown; defaultCpuSet: string };
  assert.deepEqual(checkpoint.entries, { "uid-a": { app: "1-2,5-6" } });
  writeFileSync(join(dir, "state"), first.out.trim());
  const second = await run([
    "allocate",
    "--topology",
    "single-socket-ht",
    "--reserved-count",
    "1",
    "--state",
    join(dir, "state"),
    "--pod",
    join(dir, "b.yaml"),
  ]);
  assert.equal(second.code, 0, second.err);
  assert.deepEqual(JSON.parse(second.out), {
    policyName: "static",
    defaultCpuSet: "0,4",
    entries: { "uid-a": { app: "1-2,5-6" }, "uid-b": { app: "3,7" } },
    checksum: (JSON.parse(second.out) as { checksum: number }).checksum,
  });
});

test("gantry cpus allocate: an SMT alignment failure prints upstream's message", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, "p.yaml"), pod("p", "3"));
  const got = await run([
    "allocate",
    "--topology",
    "single-socket-ht",
    "--options",
    "full-pcpus-only=true",
    "--pod",
    join(dir, "p.yaml"),
  ]);
  assert.deepEqual(got, {
    code: 1,
    out: "",
    err: "SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2\n(reason SMTAlignmentError)\n",
  });
});

test("gantry cpus allocate: a NUMA hint takes aligned CPUs first", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, "p.yaml"), pod("p", "2"));
  const got = await run([
    "allocate",
    "--topology",
    "dual-socket-ht",
    "--numa-affinity",
    "1",
    "--pod",
    join(dir, "p.yaml"),
  ]);
  assert.equal(got.code, 0, got.err);
  assert.deepEqual((JSON.parse(got.out) as { entries: unknown }).entries, {
    "uid-p": { app: "1,7" },
  });
});

test("gantry cpus compare: the uncore option keeps containers inside one L3", async (t) => {
  const dir = tempDir(t);
  const file = join(dir, "pods.yaml");
  writeFileSync(file, [pod("a", "2"), pod("b", "16"), pod("c", "6")].join("---\n"));
  const got = await run([
    "compare",
    "--topology",
    "split-l3-2s-16c-smt2",
    "--reserved",
    "0,32",
    "--pods",
    file,
    "--options-sets",
    "none;prefer-align-cpus-by-uncorecache=true",
    "--output",
    "json",
  ]);
  assert.equal(got.code, 0, got.err);
  const rows = JSON.parse(got.out) as {
    options: string;
    summary: { spanningL3: number; admitted: number };
    containers: { pod: string; cpus: string }[];
  }[];
  assert.deepEqual(
    rows.map((r) => [
      r.options,
      r.summary.admitted,
      r.summary.spanningL3,
      r.containers.map((c) => c.cpus),
    ]),
    [
      ["none", 3, 1, ["1,33", "2-9,34-41", "10-12,42-44"]],
      ["prefer-align-cpus-by-uncorecache=true", 3, 0, ["1,33", "8-15,40-47", "2-4,34-36"]],
    ],
  );
});

test("gantry cpus: the real CLI prints the take result and the compare table", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, "pods.yaml"), [pod("a", "2"), pod("b", "16")].join("---\n"));
  const take = await runGantry([
    "cpus",
    "take",
    "--topology",
    "amd-epyc-9654-2s",
    "--count",
    "32",
    "--options",
    "prefer-align-cpus-by-uncorecache=true",
  ]);
  assert.deepEqual([take.code, take.stdout], [0, "0-15,192-207\n"], take.stderr);
  const compare = await runGantry([
    "cpus",
    "compare",
    "--topology",
    "split-l3-2s-16c-smt2",
    "--reserved-count",
    "2",
    "--pods",
    join(dir, "pods.yaml"),
  ]);
  assert.equal(compare.code, 0, compare.stderr);
  const lines = compare.stdout.trim().split("\n");
  assert.match(
    lines[0] ?? "",
    /^OPTIONS\s+ADMITTED\s+REJECTED\s+EXCLUSIVE\s+SPANNING-L3\s+SHARED-L3/,
  );
  assert.deepEqual(
    lines.slice(1).map((l) => l.split(/\s+/)[0]),
    [
      "none",
      "full-pcpus-only=true",
      "prefer-align-cpus-by-uncorecache=true",
      "prefer-align-cpus-by-uncorecache=true,full-pcpus-only=true",
      "distribute-cpus-across-numa=true",
    ],
  );
  const usage = await runGantry(["cpus", "take"]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /Missing --topology/);
});

test("gantry up: static nodes with the uncore option pin Guaranteed pods to one L3, across a restart", async (t) => {
  const dir = tempDir(t);
  const config = join(dir, "cluster.yaml");
  writeFileSync(
    config,
    `apiVersion: gantry.dev/v1alpha1
kind: ClusterConfig
nodePools:
- name: epyc
  count: 1
  topology: split-l3-2s-16c-smt2
  capacity: {memory: 64Gi}
  kubelet:
    cpuManagerPolicy: static
    cpuManagerPolicyOptions: {prefer-align-cpus-by-uncorecache: "true", full-pcpus-only: "true"}
    reservedSystemCPUs: "0,32"
`,
  );
  const data = join(dir, "data");
  const checkpoint = join(data, "nodes", "epyc-0", "cpu_manager_state");
  const args = ["--config", config];
  const create = async (url: string, token: string, name: string, cpu: string) => {
    const body = JSON.stringify({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name },
      spec: {
        containers: [
          { name: "app", image: "nginx", resources: { limits: { cpu, memory: "1Gi" } } },
        ],
      },
    });
    const res = await requestGantry(`${url}/api/v1/namespaces/default/pods`, {
      token,
      method: "POST",
      body,
      headers: { "Content-Type": "application/json" },
    });
    assert.equal(res.status, 201, res.body);
  };
  const phaseOf = async (url: string, token: string, name: string): Promise<string> => {
    const res = await requestGantry(`${url}/api/v1/namespaces/default/pods/${name}`, { token });
    return (JSON.parse(res.body) as { status?: { phase?: string } }).status?.phase ?? "";
  };
  let before: string;
  {
    await using gantry = await startGantry({ dataDir: data, extraArgs: args, storage: "sqlite" });
    await create(gantry.url, gantry.token, "db", "16");
    await create(gantry.url, gantry.token, "cache", "8");
    await eventually(async () => {
      assert.equal(await phaseOf(gantry.url, gantry.token, "db"), "Running", "db runs");
      assert.equal(await phaseOf(gantry.url, gantry.token, "cache"), "Running", "cache runs");
    });
    before = await eventually(() => {
      const text = readFileSync(checkpoint, "utf8");
      const state = JSON.parse(text) as { entries?: Record<string, Record<string, string>> };
      const cpus = Object.values(state.entries ?? {})
        .map((c) => c["app"])
        .sort();
      assert.deepEqual(cpus, ["1-4,33-36", "8-15,40-47"], "each pod stays inside one L3 group");
      return text;
    });
  }
  {
    await using gantry = await startGantry({ dataDir: data, extraArgs: args, storage: "sqlite" });
    assert.equal(await phaseOf(gantry.url, gantry.token, "db"), "Running");
    await create(gantry.url, gantry.token, "web", "4");
    await eventually(async () => {
      assert.equal(await phaseOf(gantry.url, gantry.token, "web"), "Running", "web runs");
    });
    const state = JSON.parse(readFileSync(checkpoint, "utf8")) as {
      entries: Record<string, Record<string, string>>;
    };
    const old = JSON.parse(before) as { entries: Record<string, Record<string, string>> };
    for (const [uid, containers] of Object.entries(old.entries)) {
      assert.deepEqual(state.entries[uid], containers, `pod ${uid} keeps its CPUs`);
    }
    assert.equal(Object.keys(state.entries).length, 3);
    await create(gantry.url, gantry.token, "odd", "3");
    await eventually(async () => {
      const res = await requestGantry(`${gantry.url}/api/v1/namespaces/default/pods/odd`, {
        token: gantry.token,
      });
      const status = (JSON.parse(res.body) as { status?: Record<string, unknown> }).status ?? {};
      assert.deepEqual(
        [status["phase"], status["reason"], status["message"]],
        [
          "Failed",
          "SMTAlignmentError",
          "Pod was rejected: SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2",
        ],
        "an odd request is refused by full-pcpus-only",
      );
    });
  }
  const noneConfig = join(dir, "none.yaml");
  writeFileSync(
    noneConfig,
    readFileSync(config, "utf8")
      .replace("cpuManagerPolicy: static", "cpuManagerPolicy: none")
      .replace(/ {4}cpuManagerPolicyOptions.*\n/, "")
      .replace(/ {4}reservedSystemCPUs.*\n/, ""),
  );
  const refused = await runGantry([
    "up",
    "--data-dir",
    data,
    "--port",
    "0",
    "--config",
    noneConfig,
  ]);
  assert.equal(refused.code, 1, refused.stderr);
  assert.ok(
    refused.stderr.includes(
      `gantry: could not restore state from checkpoint: configured policy "none" differs from state checkpoint policy "static", please drain this node and delete the CPU manager checkpoint file "${checkpoint}" before restarting Kubelet`,
    ),
    refused.stderr,
  );
});
