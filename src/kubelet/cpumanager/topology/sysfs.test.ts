import assert from "node:assert/strict";
import { test } from "node:test";
import { discoverTopology } from "./discover.ts";
import { readSysfsMachine, type SysfsReader } from "./sysfs.ts";

/** A sysfs tree held in a map of file path → contents; directories are implied. */
function treeReader(files: Readonly<Record<string, string>>): SysfsReader {
  return {
    readFile: (path) => files[path],
    listDir: (path) => {
      const prefix = `${path}/`;
      const names = new Set<string>();
      for (const file of Object.keys(files)) {
        if (file.startsWith(prefix)) names.add(file.slice(prefix.length).split("/")[0] ?? "");
      }
      return names.size === 0 ? undefined : [...names];
    },
  };
}

/** 8 CPUs: 4 cores with 2 threads (n and n+4), two L3s of 2 cores each, one NUMA node. */
function splitL3Tree(): Record<string, string> {
  const files: Record<string, string> = {
    "/s/devices/system/node/node0/cpulist": "0-7\n",
    "/s/devices/system/node/node0/distance": "10\n",
    "/s/devices/system/node/node0/meminfo": "Node 0 MemTotal:       16384 kB\n",
    "/s/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq": "3700000\n",
  };
  for (let cpu = 0; cpu < 8; cpu++) {
    const core = cpu % 4;
    const base = `/s/devices/system/cpu/cpu${cpu}`;
    files[`${base}/topology/core_id`] = `${core}\n`;
    files[`${base}/topology/physical_package_id`] = "0\n";
    const siblings = (1 << core) | (1 << (core + 4));
    const l3 = core < 2 ? 0x33 : 0xcc;
    const caches = [
      { level: 1, type: "Data", size: "32K", id: core, map: siblings },
      { level: 1, type: "Instruction", size: "32K", id: core, map: siblings },
      { level: 2, type: "Unified", size: "1024K", id: core, map: siblings },
      { level: 3, type: "Unified", size: "32768K", id: core < 2 ? 0 : 1, map: l3 },
    ];
    caches.forEach((c, i) => {
      const dir = `${base}/cache/index${i}`;
      files[`${dir}/level`] = `${c.level}\n`;
      files[`${dir}/type`] = `${c.type}\n`;
      files[`${dir}/size`] = `${c.size}\n`;
      files[`${dir}/id`] = `${c.id}\n`;
      files[`${dir}/shared_cpu_map`] = `${c.map.toString(16).padStart(8, "0")}\n`;
    });
  }
  return files;
}

test("readSysfsMachine: cores, split L3 uncore caches and the node as cAdvisor reports them", () => {
  const machine = readSysfsMachine(treeReader(splitL3Tree()), "/s");
  assert.equal(machine.cpuFrequencyKhz, 3_700_000);
  assert.equal(machine.nodes.length, 1);
  const node = machine.nodes[0];
  assert.ok(node !== undefined, "one NUMA node");
  assert.equal(node.memory, 16384 * 1024);
  assert.deepEqual(node.caches, []);
  assert.deepEqual(
    node.cores.map((c) => [c.core_id, c.thread_ids, c.caches.length, c.uncore_caches]),
    [
      [0, [0, 4], 3, [{ id: 0, size: 32 * 1024 * 1024, type: "Unified", level: 3 }]],
      [1, [1, 5], 3, [{ id: 0, size: 32 * 1024 * 1024, type: "Unified", level: 3 }]],
      [2, [2, 6], 3, [{ id: 1, size: 32 * 1024 * 1024, type: "Unified", level: 3 }]],
      [3, [3, 7], 3, [{ id: 1, size: 32 * 1024 * 1024, type: "Unified", level: 3 }]],
    ],
  );
  assert.deepEqual(
    discoverTopology(machine.nodes)
      .records()
      .map((r) => `${r.cpu}:${r.core}/${r.uncore}`),
    ["0:0/0", "1:1/0", "2:2/1", "3:3/1", "4:0/0", "5:1/0", "6:2/1", "7:3/1"],
  );
});

test("readSysfsMachine: offline CPUs are skipped and packages stand in for missing NUMA nodes", () => {
  const files: Record<string, string> = {};
  for (let cpu = 0; cpu < 4; cpu++) {
    const base = `/s/devices/system/cpu/cpu${cpu}`;
    files[`${base}/topology/core_id`] = `${cpu % 2}`;
    files[`${base}/topology/physical_package_id`] = `${cpu < 2 ? 0 : 1}`;
    files[`${base}/cache/index0/level`] = "3";
    files[`${base}/cache/index0/type`] = "Unified";
    files[`${base}/cache/index0/size`] = "16384K";
    files[`${base}/cache/index0/id`] = `${cpu < 2 ? 0 : 1}`;
    files[`${base}/cache/index0/shared_cpu_list`] = cpu < 2 ? "0-1" : "2-3";
  }
  files["/s/devices/system/cpu/cpu3/online"] = "0\n";
  const machine = readSysfsMachine(treeReader(files), "/s");
  assert.deepEqual(
    machine.nodes.map((n) => [
      n.node_id,
      n.cores.flatMap((c) => c.thread_ids),
      n.caches.map((c) => c.id),
    ]),
    [
      [0, [0, 1], [0]],
      [1, [2], []],
    ],
  );
  // CPU 2's L3 is shared by 2 CPUs but its node has 1 online: an uncore cache, as cAdvisor files it.
  assert.deepEqual(
    machine.nodes[1]?.cores[0]?.uncore_caches.map((c) => c.id),
    [1],
  );
});

test("readSysfsMachine: a tree without CPU topology is refused", () => {
  assert.throws(() => readSysfsMachine(treeReader({}), "/s"), {
    message:
      "Cannot read a CPU topology under /s/devices/system/cpu: no online cpuN/topology/core_id and physical_package_id",
  });
});
