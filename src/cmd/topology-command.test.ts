import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { runGantry } from "../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { runTopologyCommand } from "./topology-command.ts";

ensureNoLeaksInEachTest();

async function run(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runTopologyCommand(args, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  });
  return { code, out, err };
}

/**
 * A copied sysfs tree of a small split-L3 machine: 2 sockets (one NUMA node each) of 4 cores
 * with 2 threads (CPU n and n+8 are siblings), one L3 per 2 cores.
 */
function writeTree(root: string): void {
  const file = (path: string, text: string): void => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, `${text}\n`);
  };
  for (let node = 0; node < 2; node++) {
    file(`devices/system/node/node${node}/cpulist`, node === 0 ? "0-3,8-11" : "4-7,12-15");
    file(`devices/system/node/node${node}/distance`, node === 0 ? "10 21" : "21 10");
    file(`devices/system/node/node${node}/meminfo`, `Node ${node} MemTotal:  8388608 kB`);
  }
  for (let cpu = 0; cpu < 16; cpu++) {
    const core = cpu % 8;
    const base = `devices/system/cpu/cpu${cpu}`;
    file(`${base}/topology/core_id`, String(core % 4));
    file(`${base}/topology/physical_package_id`, String(core < 4 ? 0 : 1));
    const l3 = Math.floor(core / 2);
    const l3Cpus = [2 * l3, 2 * l3 + 1, 2 * l3 + 8, 2 * l3 + 9];
    const caches = [
      { level: 1, type: "Data", size: "48K", id: core, cpus: [core, core + 8] },
      { level: 1, type: "Instruction", size: "32K", id: core, cpus: [core, core + 8] },
      { level: 2, type: "Unified", size: "2048K", id: core, cpus: [core, core + 8] },
      { level: 3, type: "Unified", size: "16384K", id: l3, cpus: l3Cpus },
    ];
    caches.forEach((c, i) => {
      const dir = `${base}/cache/index${i}`;
      file(`${dir}/level`, String(c.level));
      file(`${dir}/type`, c.type);
      file(`${dir}/size`, c.size);
      file(`${dir}/id`, String(c.id));
      const mask = c.cpus.reduce((m, id) => m | (1 << id), 0);
      file(`${dir}/shared_cpu_map`, mask.toString(16).padStart(8, "0"));
      file(`${dir}/shared_cpu_list`, c.cpus.join(","));
    });
  }
}

test("gantry topology discover: a copied sysfs tree becomes cAdvisor's MachineInfo", async (t) => {
  const root = mkdtempSync(join(tmpdir(), "gantry-sysfs-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  writeTree(root);
  const got = await run(["discover", "--sysfs-root", root]);
  assert.equal(got.code, 0, got.err);
  const info = JSON.parse(got.out) as {
    num_cores: number;
    num_physical_cores: number;
    num_sockets: number;
    memory_capacity: number;
    topology: {
      node_id: number;
      distances: number[];
      caches: unknown[];
      cores: {
        core_id: number;
        thread_ids: number[];
        socket_id: number;
        uncore_caches: { id: number }[];
      }[];
    }[];
  };
  assert.deepEqual(
    [info.num_cores, info.num_physical_cores, info.num_sockets, info.memory_capacity],
    [16, 8, 2, 2 * 8388608 * 1024],
  );
  assert.deepEqual(
    info.topology.map((n) => [
      n.node_id,
      n.distances,
      n.caches.length,
      n.cores.map(
        (c) =>
          `${c.socket_id}/${c.core_id}:${c.thread_ids.join("+")}@L3-${c.uncore_caches.map((u) => u.id).join(",")}`,
      ),
    ]),
    [
      [0, [10, 21], 0, ["0/0:0+8@L3-0", "0/1:1+9@L3-0", "0/2:2+10@L3-1", "0/3:3+11@L3-1"]],
      [1, [21, 10], 0, ["1/0:4+12@L3-2", "1/1:5+13@L3-2", "1/2:6+14@L3-3", "1/3:7+15@L3-3"]],
    ],
  );

  // The same tree through the real CLI, fed back into gantry cpus as a topology file.
  const file = join(root, "machine.json");
  const discovered = await runGantry(["topology", "discover", "--sysfs-root", root]);
  assert.equal(discovered.code, 0, discovered.stderr);
  writeFileSync(file, discovered.stdout);
  const take = await runGantry([
    "cpus",
    "take",
    "--topology",
    file,
    "--count",
    "4",
    "--available",
    "1-15",
    "--options",
    "prefer-align-cpus-by-uncorecache=true",
  ]);
  assert.deepEqual([take.code, take.stdout], [0, "2-3,10-11\n"], take.stderr);
});

test("gantry topology discover: a tree without CPUs is refused", async (t) => {
  const root = mkdtempSync(join(tmpdir(), "gantry-sysfs-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const got = await run(["discover", "--sysfs-root", root]);
  assert.equal(got.code, 1);
  assert.match(got.err, /^Cannot read a CPU topology under .*devices\/system\/cpu/);
});

test("gantry topology presets: every preset with its facts", async () => {
  const got = await run(["presets"]);
  assert.equal(got.code, 0);
  assert.match(got.out, /^amd-epyc-9654-2s\n {2}2 x AMD EPYC 9654/);
  assert.ok(got.out.includes("intel-xeon-8380-2s\n"), "lists the Intel preset");
});

test("gantry topology show: the flat list the kubelet sees, with counts", async () => {
  const got = await run(["show", "--topology", "uncore-single-socket-smt"]);
  assert.equal(got.code, 0, got.err);
  const flat = JSON.parse(got.out) as { cpus: { cpu: number; core: number; uncore: number }[] };
  assert.deepEqual(flat.cpus[9], { cpu: 9, core: 1, socket: 0, numa: 0, uncore: 0 });
  assert.equal(got.err, "16 CPUs, 8 cores, 1 sockets, 1 NUMA nodes, 2 uncore caches\n");
});

test("gantry topology: an unknown subcommand is a usage error", async () => {
  const got = await run(["describe"]);
  assert.equal(got.code, 2);
  assert.match(got.err, /Unknown subcommand "describe"/);
});
