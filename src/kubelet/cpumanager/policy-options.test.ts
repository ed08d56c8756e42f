import assert from "node:assert/strict";
import { test } from "node:test";
import {
  defaultStaticPolicyOptions,
  newStaticPolicyOptions,
  validateStaticPolicyOptions,
} from "./policy-options.ts";
import { fixture } from "./topology/fixtures.ts";
import { CpuTopology } from "./topology/topology.ts";

const allGates = { alphaOptions: true, betaOptions: true };

const accepted = [
  { name: "no options", options: {}, want: {} },
  {
    name: "full-pcpus-only needs no gate",
    options: { "full-pcpus-only": "true" },
    gates: {},
    want: { fullPhysicalCpusOnly: true },
  },
  {
    name: "a beta option is on by default",
    options: { "prefer-align-cpus-by-uncorecache": "True" },
    gates: {},
    want: { preferAlignByUncoreCache: true },
  },
  {
    name: "the KEP's name is an alias",
    options: { "align-cpus-by-uncorecache": "1" },
    gates: {},
    want: { preferAlignByUncoreCache: true },
  },
  {
    name: "false options never conflict",
    options: { "full-pcpus-only": "t", "distribute-cpus-across-cores": "false" },
    want: { fullPhysicalCpusOnly: true },
  },
  {
    name: "uncore with full-pcpus-only",
    options: { "full-pcpus-only": "true", "prefer-align-cpus-by-uncorecache": "true" },
    want: { fullPhysicalCpusOnly: true, preferAlignByUncoreCache: true },
  },
  {
    name: "numa with full-pcpus-only and strict reservation",
    options: {
      "distribute-cpus-across-numa": "true",
      "full-pcpus-only": "true",
      "strict-cpu-reservation": "TRUE",
    },
    want: {
      distributeCpusAcrossNuma: true,
      fullPhysicalCpusOnly: true,
      strictCpuReservation: true,
    },
  },
  {
    name: "alpha options with the alpha gate",
    options: { "align-by-socket": "true", "distribute-cpus-across-cores": "true" },
    want: { alignBySocket: true, distributeCpusAcrossCores: true },
  },
] as const;

for (const c of accepted) {
  test(`newStaticPolicyOptions: ${c.name}`, () => {
    const gates = "gates" in c ? c.gates : allGates;
    assert.deepEqual(newStaticPolicyOptions(c.options, gates), {
      ...defaultStaticPolicyOptions,
      ...c.want,
    });
  });
}

const refused = [
  {
    name: "an unknown option",
    options: { "pack-tightly": "true" },
    gates: allGates,
    want: 'unknown CPU Manager Policy option: "pack-tightly"',
  },
  {
    name: "an alpha option without its gate",
    options: { "align-by-socket": "true" },
    gates: {},
    want: 'CPU Manager Policy Alpha-level Options not enabled, but option "align-by-socket" provided',
  },
  {
    name: "a beta option with the beta gate off",
    options: { "strict-cpu-reservation": "true" },
    gates: { betaOptions: false },
    want: 'CPU Manager Policy Beta-level Options not enabled, but option "strict-cpu-reservation" provided',
  },
  {
    name: "a value that is not a bool",
    options: { "full-pcpus-only": "yes" },
    gates: allGates,
    want: 'bad value for option "full-pcpus-only": strconv.ParseBool: parsing "yes": invalid syntax',
  },
  {
    name: "full-pcpus-only with cores",
    options: { "full-pcpus-only": "true", "distribute-cpus-across-cores": "true" },
    gates: allGates,
    want: "static policy options full-pcpus-only and distribute-cpus-across-cores can not be used at the same time",
  },
  {
    name: "numa with cores",
    options: { "distribute-cpus-across-numa": "true", "distribute-cpus-across-cores": "true" },
    gates: allGates,
    want: "static policy options distribute-cpus-across-numa and distribute-cpus-across-cores can not be used at the same time",
  },
  {
    name: "uncore with cores",
    options: { "prefer-align-cpus-by-uncorecache": "true", "distribute-cpus-across-cores": "true" },
    gates: allGates,
    want: "static policy options prefer-align-cpus-by-uncorecache and distribute-cpus-across-cores can not be used at the same time",
  },
  {
    name: "uncore (alias) with numa",
    options: { "align-cpus-by-uncorecache": "true", "distribute-cpus-across-numa": "true" },
    gates: allGates,
    want: "static policy options prefer-align-cpus-by-uncorecache and distribute-cpus-across-numa can not be used at the same time",
  },
] as const;

for (const c of refused) {
  test(`newStaticPolicyOptions: ${c.name} is refused with upstream's message`, () => {
    assert.throws(() => newStaticPolicyOptions(c.options, c.gates), { message: c.want });
  });
}

test("validateStaticPolicyOptions: align-by-socket is refused with single-numa-node", () => {
  const options = { ...defaultStaticPolicyOptions, alignBySocket: true };
  assert.throws(
    () => validateStaticPolicyOptions(options, fixture("dual-socket-ht"), "single-numa-node"),
    {
      message:
        "Topolgy manager single-numa-node policy is incompatible with CPUManager align-by-socket policy option",
    },
  );
  assert.doesNotThrow(() =>
    validateStaticPolicyOptions(options, fixture("dual-socket-ht"), "restricted"),
  );
});

test("validateStaticPolicyOptions: align-by-socket is refused with more sockets than NUMA nodes", () => {
  const twoSocketsOneNuma = CpuTopology.fromRecords([
    { cpu: 0, core: 0, socket: 0, numa: 0, uncore: 0 },
    { cpu: 1, core: 1, socket: 1, numa: 0, uncore: 1 },
  ]);
  assert.throws(
    () =>
      validateStaticPolicyOptions(
        { ...defaultStaticPolicyOptions, alignBySocket: true },
        twoSocketsOneNuma,
        "none",
      ),
    {
      message:
        "Align by socket is not compatible with hardware where number of sockets are more than number of NUMA",
    },
  );
});
