import assert from "node:assert/strict";
import { test } from "node:test";
import { Registry } from "prom-client";
import { FakeClock, settle } from "../../testing/index.ts";
import { seededRandom } from "../../util/index.ts";
import type { UserInfo } from "../admission/index.ts";
import { parseRequestInfo, type RequestInfo } from "../http/request-info.ts";
import type { Seat } from "../max-in-flight.ts";
import { newDeadlines } from "./deadlines.ts";
import {
  type FlowController,
  type LimiterAdmission,
  newFlowController,
} from "./flow-controller.ts";
import { newFlowControlMetrics } from "./metrics.ts";

const admin: UserInfo = { username: "admin", groups: ["system:masters", "system:authenticated"] };
const anonymous: UserInfo = { username: "system:anonymous", groups: ["system:unauthenticated"] };
const alice: UserInfo = { username: "alice", groups: ["team-a", "system:authenticated"] };
const bob: UserInfo = { username: "bob", groups: ["system:authenticated"] };

function request(method: string, path: string, watch = false): RequestInfo {
  return parseRequestInfo(method, path, watch);
}

const listPods = request("GET", "/api/v1/namespaces/team-a/pods");

/** A controller on a fake clock. 8 seats give global-default ceil(8 * 20 / 245) = 1 seat. */
function harness(seats = 8, waitLimitMs = 15_000) {
  const clock = new FakeClock();
  const stop = new AbortController();
  const random = seededRandom(1);
  const registry = new Registry();
  let controller: FlowController | undefined;
  const observer = newFlowControlMetrics(registry, () => controller);
  controller = newFlowController({
    serverConcurrencyLimit: seats,
    requestWaitLimitMs: waitLimitMs,
    deadlines: newDeadlines(clock, stop.signal),
    now: () => clock.now().getTime(),
    uid: () => random.uuid(),
    observer,
  });
  return { clock, stop, controller, registry };
}

const classifications: readonly {
  readonly name: string;
  readonly user: UserInfo;
  readonly info: RequestInfo;
  readonly want: readonly [flowSchema: string, priorityLevel: string];
}[] = [
  { name: "system:masters is exempt", user: admin, info: listPods, want: ["exempt", "exempt"] },
  {
    name: "health probes are exempt for anyone",
    user: anonymous,
    info: request("GET", "/readyz"),
    want: ["probes", "exempt"],
  },
  {
    name: "other non-resource paths of anonymous users are global-default",
    user: anonymous,
    info: request("GET", "/version"),
    want: ["global-default", "global-default"],
  },
  {
    name: "a team user's pods are global-default",
    user: alice,
    info: listPods,
    want: ["global-default", "global-default"],
  },
  {
    name: "a kubelet's node status is node-high",
    user: { username: "system:node:n1", groups: ["system:nodes", "system:authenticated"] },
    info: request("PUT", "/api/v1/nodes/n1/status"),
    want: ["system-node-high", "node-high"],
  },
  {
    name: "a kubelet's lease is node-high",
    user: { username: "system:node:n1", groups: ["system:nodes", "system:authenticated"] },
    info: request("PUT", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1"),
    want: ["system-node-high", "node-high"],
  },
  {
    name: "a kubelet's pod writes are system",
    user: { username: "system:node:n1", groups: ["system:nodes", "system:authenticated"] },
    info: request("PATCH", "/api/v1/namespaces/a/pods/p/status"),
    want: ["system-nodes", "system"],
  },
  {
    name: "the scheduler's leader election is leader-election",
    user: { username: "system:kube-scheduler", groups: ["system:authenticated"] },
    info: request(
      "PUT",
      "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler",
    ),
    want: ["system-leader-election", "leader-election"],
  },
  {
    name: "the scheduler's bindings are workload-high",
    user: { username: "system:kube-scheduler", groups: ["system:authenticated"] },
    info: request("POST", "/api/v1/namespaces/a/pods/p/binding"),
    want: ["kube-scheduler", "workload-high"],
  },
  {
    name: "the controller manager is workload-high",
    user: { username: "system:kube-controller-manager", groups: ["system:authenticated"] },
    info: request("POST", "/apis/apps/v1/namespaces/a/replicasets"),
    want: ["kube-controller-manager", "workload-high"],
  },
  {
    name: "the queueing component (Kueue's identity) is workload-high",
    user: {
      username: "system:serviceaccount:kueue-system:kueue-controller-manager",
      groups: [
        "system:serviceaccounts",
        "system:serviceaccounts:kueue-system",
        "system:authenticated",
      ],
    },
    info: request("PUT", "/apis/kueue.x-k8s.io/v1beta1/namespaces/a/workloads/w/status"),
    want: ["kueue-controller-manager", "workload-high"],
  },
  {
    name: "other service accounts are workload-low",
    user: {
      username: "system:serviceaccount:team-a:builder",
      groups: ["system:serviceaccounts", "system:serviceaccounts:team-a", "system:authenticated"],
    },
    info: listPods,
    want: ["service-accounts", "workload-low"],
  },
  {
    name: "a user in neither system group falls to catch-all",
    user: { username: "impersonated", groups: [] },
    info: listPods,
    want: ["catch-all", "catch-all"],
  },
];

for (const c of classifications) {
  test(`FlowController.admit: ${c.name}`, () => {
    const { controller } = harness(600);
    const admission = controller.admit(c.info, c.user);
    assert.ok(admission.classification !== undefined, "classified");
    assert.deepEqual(
      [admission.classification.flowSchema, admission.classification.priorityLevel],
      c.want,
    );
  });
}

test("FlowController: seats are shared by shares, as upstream's nominal concurrency limits", () => {
  const { controller } = harness(600);
  assert.deepEqual(
    controller.priorityLevels().map((l) => [l.name, l.seats]),
    [
      ["exempt", 0],
      ["system", 74],
      ["node-high", 98],
      ["leader-election", 25],
      ["workload-high", 98],
      ["workload-low", 245],
      ["global-default", 49],
      ["catch-all", 13],
    ],
  );
});

test("FlowController.admit: exempt users are served however full the levels are", () => {
  const { controller } = harness();
  assert.equal(controller.admit(listPods, alice).kind, "admitted", "global-default's one seat");
  assert.equal(controller.admit(listPods, bob).kind, "queued");
  for (let i = 0; i < 100; i++) {
    assert.equal(controller.admit(listPods, admin).kind, "exempt", `admin request ${i}`);
  }
});

test("FlowController.admit: long-running requests other than watches take no seat", () => {
  const { controller } = harness();
  assert.equal(controller.admit(listPods, alice).kind, "admitted");
  const logs = controller.admit(request("GET", "/api/v1/namespaces/a/pods/p/log"), bob);
  assert.deepEqual(logs, { kind: "exempt" });
  const watch = controller.admit(request("GET", "/api/v1/namespaces/a/pods", true), bob);
  assert.equal(watch.kind, "queued", "a watch waits for a seat to initialise");
});

async function seatOf(admission: LimiterAdmission): Promise<Seat | undefined> {
  if (admission.kind === "admitted") return admission.seat;
  if (admission.kind === "queued") return admission.wait;
  return undefined;
}

test("FlowController: a noisy user cannot take a quiet user's turn", async () => {
  const { controller } = harness();
  const first = controller.admit(listPods, alice);
  assert.equal(first.kind, "admitted");
  const order: string[] = [];
  const pending: Promise<void>[] = [];
  const queue = (user: UserInfo, name: string): void => {
    const admission = controller.admit(listPods, user);
    assert.equal(admission.kind, "queued", `${name} waits`);
    pending.push(
      seatOf(admission).then((seat) => {
        order.push(name);
        seat?.release();
      }),
    );
  };
  for (let i = 1; i <= 40; i++) queue(alice, `alice${i}`);
  queue(bob, "bob");
  (await seatOf(first))?.release();
  await Promise.all(pending);
  assert.equal(order.length, 41);
  // Alice's 40 requests fill at most her 6 queues; Bob's queue gets a turn in the first round.
  assert.ok(
    order.indexOf("bob") <= 6,
    `bob was served ${order.indexOf("bob") + 1}th: ${order.join(",")}`,
  );
});

test("FlowController: a flow that fills its queues is rejected; the rejection is counted", async () => {
  const { controller, registry } = harness();
  assert.equal(controller.admit(listPods, alice).kind, "admitted");
  const kinds = new Map<string, number>();
  for (let i = 0; i < 6 * 50 + 5; i++) {
    const kind = controller.admit(listPods, alice).kind;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  // Six queues of fifty: the rest is turned away.
  assert.deepEqual(Object.fromEntries(kinds), { queued: 300, rejected: 5 });
  assert.equal(controller.admit(listPods, bob).kind, "queued", "bob's queues have room");
  const text = await registry.metrics();
  assert.match(
    text,
    /apiserver_flowcontrol_rejected_requests_total\{priority_level="global-default",flow_schema="global-default",reason="queue-full"\} 5/,
  );
  assert.match(
    text,
    /apiserver_flowcontrol_current_inqueue_requests\{priority_level="global-default",flow_schema="global-default"\} 301/,
  );
});

test("FlowController: a request that waits past the wait limit gets no seat", async () => {
  const { controller, clock, stop, registry } = harness(8, 1_000);
  assert.equal(controller.admit(listPods, alice).kind, "admitted");
  const waiting = controller.admit(listPods, bob);
  assert.equal(waiting.kind, "queued");
  let outcome: string = "waiting";
  void seatOf(waiting).then((seat) => {
    outcome = seat === undefined ? "timed out" : "seated";
  });
  await clock.advance(999);
  assert.equal(outcome, "waiting");
  await clock.advance(1);
  await settle();
  assert.equal(outcome, "timed out");
  assert.match(await registry.metrics(), /reason="time-out"\} 1/);
  stop.abort();
});

test("FlowController: a cancelled waiter leaves the queue and frees nothing", async () => {
  const { controller } = harness();
  const first = controller.admit(listPods, alice);
  const waiting = controller.admit(listPods, bob);
  assert.equal(waiting.kind, "queued");
  if (waiting.kind !== "queued") return;
  waiting.cancel();
  assert.equal(await waiting.wait, undefined);
  assert.deepEqual(
    controller.flowSchemaCounts().find((c) => c.flowSchema === "global-default"),
    { flowSchema: "global-default", priorityLevel: "global-default", executing: 1, waiting: 0 },
  );
  (await seatOf(first))?.release();
  assert.deepEqual(controller.inFlight(), { readOnly: 0, mutating: 0 });
});
