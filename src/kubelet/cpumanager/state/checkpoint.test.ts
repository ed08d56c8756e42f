import assert from "node:assert/strict";
import { test } from "node:test";
import { CpuSet } from "../cpuset.ts";
import { decodeCheckpoint, encodeCheckpoint } from "./checkpoint.ts";
import { checksumV1, checksumV2 } from "./checksum.ts";
import { CpuManagerState } from "./state.ts";

// Published values from upstream's state_checkpoint_test.go / checkpoint compatibility tests.
const published = [
  {
    name: "a static checkpoint with one container",
    policy: "static",
    shared: "0,2-12,14-23",
    entries: { "235148fe-393f-47a8-a17d-bd55bc1a836b": { "cgroup1-0": "1,13" } },
    want: 1552716370,
  },
  {
    name: "a static checkpoint without entries",
    policy: "static",
    shared: "0-7",
    entries: {},
    want: 14413152,
  },
  { name: "a none checkpoint", policy: "none", shared: "", entries: {}, want: 1353318690 },
] as const;

for (const c of published) {
  test(`checksumV2: ${c.name} matches upstream's published checksum`, () => {
    assert.equal(checksumV2(c.policy, c.shared, c.entries), c.want);
  });
}

test("checksumV1: the v1 none checkpoint matches upstream's published checksum", () => {
  assert.equal(checksumV1("none", "", {}), 3242152201);
});

test("encodeCheckpoint: the kubelet's JSON, byte for byte", () => {
  const state = new CpuManagerState(CpuSet.parse("0,2-12,14-23"));
  state.setCpuSet("235148fe-393f-47a8-a17d-bd55bc1a836b", "cgroup1-0", CpuSet.of(1, 13));
  assert.equal(
    encodeCheckpoint("static", state),
    '{"policyName":"static","defaultCpuSet":"0,2-12,14-23","entries":{"235148fe-393f-47a8-a17d-bd55bc1a836b":{"cgroup1-0":"1,13"}},"checksum":1552716370}',
  );
  assert.equal(
    encodeCheckpoint("none", new CpuManagerState()),
    '{"policyName":"none","defaultCpuSet":"","checksum":1353318690}',
  );
});

test("decodeCheckpoint: restores what encodeCheckpoint wrote", () => {
  const state = new CpuManagerState(CpuSet.parse("0-3"));
  state.setCpuSet("b", "app", CpuSet.parse("4-5"));
  state.setCpuSet("a", "app", CpuSet.parse("6-7"));
  const restored = decodeCheckpoint(
    encodeCheckpoint("static", state),
    "static",
    "/d/cpu_manager_state",
  );
  assert.equal(restored.defaultCpuSet().toString(), "0-3");
  assert.deepEqual(
    [...restored.assignments()].map(([pod, c]) => [
      pod,
      [...c].map(([n, s]) => `${n}=${s.toString()}`),
    ]),
    [
      ["a", ["app=6-7"]],
      ["b", ["app=4-5"]],
    ],
  );
});

const refusals = [
  {
    name: "a checkpoint of another policy",
    text: '{"policyName":"none","defaultCpuSet":"","checksum":1353318690}',
    want: 'could not restore state from checkpoint: configured policy "static" differs from state checkpoint policy "none", please drain this node and delete the CPU manager checkpoint file "/var/lib/kubelet/cpu_manager_state" before restarting Kubelet',
  },
  {
    name: "a wrong checksum",
    text: '{"policyName":"static","defaultCpuSet":"0-7","checksum":1}',
    want: 'could not restore state from checkpoint: checkpoint is corrupted, please drain this node and delete the CPU manager checkpoint file "/var/lib/kubelet/cpu_manager_state" before restarting Kubelet',
  },
  {
    name: "an unparsable default cpuset",
    text: '{"policyName":"static","defaultCpuSet":"0-x","checksum":0}',
    want: 'could not restore state from checkpoint: could not parse default cpu set "0-x": strconv.Atoi: parsing "x": invalid syntax, please drain this node and delete the CPU manager checkpoint file "/var/lib/kubelet/cpu_manager_state" before restarting Kubelet',
  },
  {
    name: "an unparsable container cpuset",
    text: '{"policyName":"static","defaultCpuSet":"0-3","entries":{"p":{"c":"5-4"}},"checksum":0}',
    want: 'could not restore state from checkpoint: could not parse cpuset "5-4" for container "c" in pod "p": invalid range "5-4" (5 > 4), please drain this node and delete the CPU manager checkpoint file "/var/lib/kubelet/cpu_manager_state" before restarting Kubelet',
  },
] as const;

for (const c of refusals) {
  test(`decodeCheckpoint: ${c.name} is refused with upstream's message`, () => {
    assert.throws(() => decodeCheckpoint(c.text, "static", "/var/lib/kubelet/cpu_manager_state"), {
      message: c.want,
    });
  });
}

test("decodeCheckpoint: a checksum of 0 is accepted without verification", () => {
  const state = decodeCheckpoint(
    '{"policyName":"static","defaultCpuSet":"0-7","checksum":0}',
    "static",
    "x",
  );
  assert.equal(state.defaultCpuSet().toString(), "0-7");
});
