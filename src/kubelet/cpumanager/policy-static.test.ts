import assert from "node:assert/strict";
import { test } from "node:test";
import { errorMessage } from "../../util/index.ts";
import { CpuSet } from "./cpuset.ts";
import { testPod } from "./internal/test-pods.ts";
import { guaranteedCpus, podGuaranteedCpus, StaticPolicy } from "./policy-static.ts";
import { CpuManagerState } from "./state/state.ts";
import { fixture } from "./topology/fixtures.ts";

function started(policy: StaticPolicy): CpuManagerState {
  const state = new CpuManagerState();
  policy.start(state);
  return state;
}

test("StaticPolicy.allocate: init container CPUs are reused by the app container", () => {
  const policy = StaticPolicy.create({ topology: fixture("single-socket-ht"), numReservedCpus: 0 });
  const state = started(policy);
  const pod = testPod("p", [
    { name: "init", cpu: "4", init: true },
    { name: "app", cpu: "2" },
  ]);
  const [init, app] = [pod.spec.initContainers?.[0], pod.spec.containers?.[0]];
  assert.ok(init !== undefined && app !== undefined, "containers exist");
  assert.deepEqual(policy.allocate(state, pod, init), { ok: true, cpus: CpuSet.parse("0-1,4-5") });
  assert.deepEqual(policy.allocate(state, pod, app), { ok: true, cpus: CpuSet.parse("0,4") });
  assert.equal(state.defaultCpuSet().toString(), "2-3,6-7");
});

test("StaticPolicy.allocate: a restartable init container's CPUs are not reused", () => {
  const policy = StaticPolicy.create({ topology: fixture("single-socket-ht"), numReservedCpus: 0 });
  const state = started(policy);
  const pod = testPod("p", [
    { name: "sidecar", cpu: "4", sidecar: true },
    { name: "app", cpu: "2" },
  ]);
  const [sidecar, app] = [pod.spec.initContainers?.[0], pod.spec.containers?.[0]];
  assert.ok(sidecar !== undefined && app !== undefined, "containers exist");
  assert.deepEqual(policy.allocate(state, pod, sidecar), {
    ok: true,
    cpus: CpuSet.parse("0-1,4-5"),
  });
  assert.deepEqual(policy.allocate(state, pod, app), { ok: true, cpus: CpuSet.parse("2,6") });
  assert.equal(state.defaultCpuSet().toString(), "3,7");
});

const allocateCases = [
  { name: "one CPU is the sibling of the reserved one", options: {}, cpu: "1", want: "4" },
  { name: "two CPUs are a whole core", options: {}, cpu: "2", want: "1,5" },
  { name: "a fractional request stays shared", options: {}, cpu: "1500m", want: "shared" },
  { name: "2000m counts as 2 whole CPUs", options: {}, cpu: "2000m", want: "1,5" },
  {
    name: "more than the free CPUs is an unexpected error",
    options: {},
    cpu: "8",
    want: "error undefined: not enough cpus available to satisfy request: requested=8, available=7",
  },
  {
    name: "full-pcpus-only refuses an odd request",
    options: { "full-pcpus-only": "true" },
    cpu: "1",
    want: "error SMTAlignmentError: SMT Alignment Error: requested 1 cpus not multiple cpus per core = 2",
  },
  {
    name: "full-pcpus-only counts the reserved CPU's sibling as taken",
    options: { "full-pcpus-only": "true" },
    cpu: "8",
    want: "error SMTAlignmentError: SMT Alignment Error: not enough free physical CPUs: available physical CPUs = 6, requested CPUs = 8, CPUs per core = 2",
  },
] as const;

for (const c of allocateCases) {
  test(`StaticPolicy.allocate: ${c.name}`, () => {
    const policy = StaticPolicy.create({
      topology: fixture("single-socket-ht"),
      options: c.options,
      numReservedCpus: 1,
    });
    assert.equal(policy.reserved.toString(), "0");
    const state = started(policy);
    const pod = testPod("p", [{ name: "app", cpu: c.cpu }]);
    const app = pod.spec.containers?.[0];
    assert.ok(app !== undefined, "container exists");
    const result = policy.allocate(state, pod, app);
    const got = result.ok
      ? (result.cpus?.toString() ?? "shared")
      : `error ${String(result.error.reason)}: ${result.error.message}`;
    assert.equal(got, c.want);
  });
}

test("StaticPolicy.allocate: a Burstable pod stays in the shared pool", () => {
  const policy = StaticPolicy.create({ topology: fixture("single-socket-ht"), numReservedCpus: 1 });
  const state = started(policy);
  const pod = testPod("p", [{ name: "app", cpu: "2", burstable: true }]);
  const app = pod.spec.containers?.[0];
  assert.ok(app !== undefined, "container exists");
  assert.deepEqual(policy.allocate(state, pod, app), { ok: true, cpus: undefined });
  assert.equal(state.defaultCpuSet().toString(), "0-7");
});

test("StaticPolicy.allocate: a NUMA hint takes aligned CPUs first", () => {
  const policy = StaticPolicy.create({ topology: fixture("dual-socket-ht"), numReservedCpus: 0 });
  const state = started(policy);
  const pod = testPod("p", [{ name: "app", cpu: "4" }]);
  const app = pod.spec.containers?.[0];
  assert.ok(app !== undefined, "container exists");
  assert.deepEqual(policy.allocate(state, pod, app, [1]), {
    ok: true,
    cpus: CpuSet.parse("1,3,7,9"),
  });
});

test("StaticPolicy.removeContainer: CPUs still used by a sibling container stay assigned", () => {
  const policy = StaticPolicy.create({ topology: fixture("single-socket-ht"), numReservedCpus: 0 });
  const state = started(policy);
  const pod = testPod("p", [
    { name: "init", cpu: "4", init: true },
    { name: "app", cpu: "2" },
  ]);
  for (const c of [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])]) {
    assert.ok(policy.allocate(state, pod, c).ok, `${c.name} allocated`);
  }
  policy.removeContainer(state, "p", "init");
  assert.equal(state.defaultCpuSet().toString(), "1-3,5-7");
  policy.removeContainer(state, "p", "app");
  policy.removeContainer(state, "p", "app");
  assert.equal(state.defaultCpuSet().toString(), "0-7");
  assert.equal(state.assignments().size, 0);
});

const reservedCases = [
  {
    name: "packed: the lowest core",
    options: {},
    topology: "single-socket-ht",
    count: 2,
    want: "0,4",
  },
  {
    name: "uncore: the odd-request rule",
    options: { "prefer-align-cpus-by-uncorecache": "true" },
    topology: "uncore-single-socket-smt",
    count: 3,
    want: "0-1,8",
  },
  {
    name: "distribute-cpus-across-numa: the NUMA node that keeps the balance",
    options: { "distribute-cpus-across-numa": "true" },
    topology: "dual-socket-ht",
    count: 2,
    want: "0,6",
  },
] as const;

for (const c of reservedCases) {
  test(`StaticPolicy.create: reserved CPUs are chosen with the policy's options (${c.name})`, () => {
    const policy = StaticPolicy.create({
      topology: fixture(c.topology),
      options: c.options,
      numReservedCpus: c.count,
    });
    assert.equal(policy.reserved.toString(), c.want);
  });
}

test("StaticPolicy.create: the reserved physical CPUs are whole cores", () => {
  const policy = StaticPolicy.create({
    topology: fixture("single-socket-ht"),
    numReservedCpus: 2,
    reservedCpus: CpuSet.of(0, 1),
  });
  assert.equal(policy.reservedPhysical.toString(), "0-1,4-5");
  assert.throws(
    () => StaticPolicy.create({ topology: fixture("single-socket-ht"), numReservedCpus: 9 }),
    {
      message:
        "[cpumanager] unable to reserve the required amount of CPUs (size of  did not equal 9)",
    },
  );
});

const startCases = [
  {
    name: "strict reservation keeps reserved CPUs out of a fresh shared pool",
    strict: true,
    shared: "",
    assignments: [],
    want: "shared 1-7",
  },
  {
    name: "an empty shared pool with assignments",
    strict: false,
    shared: "",
    assignments: [["p", "c", "1"]],
    want: "default cpuset cannot be empty",
  },
  {
    name: "a reserved CPU missing from the shared pool",
    strict: false,
    shared: "1-7",
    assignments: [],
    want: 'not all reserved cpus: "0" are present in defaultCpuSet: "1-7"',
  },
  {
    name: "a strictly reserved CPU in the shared pool",
    strict: true,
    shared: "0-7",
    assignments: [],
    want: 'some of strictly reserved cpus: "0" are present in defaultCpuSet: "0-7"',
  },
  {
    name: "an assignment overlapping the shared pool",
    strict: false,
    shared: "0-7",
    assignments: [["p", "c", "3"]],
    want: 'pod: p, container: c cpuset: "3" overlaps with default cpuset "0-7"',
  },
  {
    name: "CPUs that the machine no longer has",
    strict: false,
    shared: "0-8",
    assignments: [],
    want: 'current set of available CPUs "0-7" doesn\'t match with CPUs in state "0-8"',
  },
] as const;

for (const c of startCases) {
  test(`StaticPolicy.start: ${c.name}`, () => {
    const policy = StaticPolicy.create({
      topology: fixture("single-socket-ht"),
      options: c.strict ? { "strict-cpu-reservation": "true" } : {},
      numReservedCpus: 1,
    });
    const state = new CpuManagerState(CpuSet.parse(c.shared));
    for (const [pod, container, cpus] of c.assignments)
      state.setCpuSet(pod, container, CpuSet.parse(cpus));
    let got: string;
    try {
      policy.start(state);
      got = `shared ${state.defaultCpuSet().toString()}`;
    } catch (error: unknown) {
      got = errorMessage(error);
    }
    assert.equal(got, c.want);
  });
}

test("guaranteedCpus and podGuaranteedCpus: whole CPUs of Guaranteed pods, init containers overlapping", () => {
  const pod = testPod("p", [
    { name: "init", cpu: "3", init: true },
    { name: "sidecar", cpu: "1", sidecar: true },
    { name: "a", cpu: "1" },
    { name: "b", cpu: "500m" },
  ]);
  assert.deepEqual(
    [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])].map((c) =>
      guaranteedCpus(pod, c),
    ),
    [3, 1, 1, 0],
  );
  assert.equal(podGuaranteedCpus(pod), 3);
});
