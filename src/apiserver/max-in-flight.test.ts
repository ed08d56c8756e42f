import assert from "node:assert/strict";
import { test } from "node:test";
import type { UserInfo } from "./admission/index.ts";
import { parseRequestInfo } from "./http/request-info.ts";
import {
  type Admission,
  isLongRunning,
  type MaxInFlightOptions,
  newMaxInFlightLimiter,
} from "./max-in-flight.ts";

const anonymous: UserInfo = { username: "system:anonymous", groups: ["system:unauthenticated"] };
const admin: UserInfo = { username: "admin", groups: ["system:masters", "system:authenticated"] };

interface Call {
  readonly method: string;
  readonly path: string;
  readonly watch?: boolean;
  readonly user?: UserInfo;
}

const get: Call = { method: "GET", path: "/api/v1/namespaces/ns/pods/p" };
const list: Call = { method: "GET", path: "/api/v1/pods" };
const post: Call = { method: "POST", path: "/api/v1/namespaces/ns/pods" };

/** Admits the calls in order, keeping every seat; the answer is each call's kind of admission. */
function admitAll(options: MaxInFlightOptions, calls: readonly Call[]): Admission["kind"][] {
  const limiter = newMaxInFlightLimiter(options);
  return calls.map((c) => {
    const info = parseRequestInfo(c.method, c.path, c.watch === true);
    return limiter.admit(info, c.user ?? anonymous).kind;
  });
}

const admitCases = [
  {
    name: "read-only requests beyond the limit are rejected",
    options: { maxRequestsInFlight: 2 },
    calls: [get, list, get],
    want: ["admitted", "admitted", "rejected"],
  },
  {
    name: "the read-only and mutating pools are separate",
    options: { maxRequestsInFlight: 1, maxMutatingRequestsInFlight: 1 },
    calls: [get, post, list, post],
    want: ["admitted", "admitted", "rejected", "rejected"],
  },
  {
    name: "every verb but get, list and watch is mutating",
    options: { maxMutatingRequestsInFlight: 3 },
    calls: [
      { method: "PUT", path: "/api/v1/namespaces/ns/pods/p" },
      { method: "PATCH", path: "/api/v1/namespaces/ns/pods/p" },
      { method: "DELETE", path: "/api/v1/namespaces/ns/pods" },
      { method: "DELETE", path: "/api/v1/namespaces/ns/pods/p" },
    ],
    want: ["admitted", "admitted", "admitted", "rejected"],
  },
  {
    name: "a non-resource GET is read-only and a non-resource HEAD is mutating, as upstream",
    options: { maxRequestsInFlight: 1, maxMutatingRequestsInFlight: 1 },
    calls: [
      { method: "GET", path: "/healthz" },
      { method: "HEAD", path: "/healthz" },
      { method: "GET", path: "/version" },
    ],
    want: ["admitted", "admitted", "rejected"],
  },
  {
    name: "watches and streaming subresources take no seat",
    options: { maxRequestsInFlight: 1, maxMutatingRequestsInFlight: 1 },
    calls: [
      get,
      post,
      { ...list, watch: true },
      { method: "GET", path: "/api/v1/watch/pods" },
      { method: "GET", path: "/api/v1/namespaces/ns/pods/p/log" },
      { method: "POST", path: "/api/v1/namespaces/ns/pods/p/exec" },
      { method: "POST", path: "/api/v1/namespaces/ns/pods/p/attach" },
      { method: "POST", path: "/api/v1/namespaces/ns/pods/p/portforward" },
      { method: "GET", path: "/api/v1/nodes/n/proxy/metrics" },
      { method: "GET", path: "/debug/pprof/profile" },
    ],
    want: [
      "admitted",
      "admitted",
      "exempt",
      "exempt",
      "exempt",
      "exempt",
      "exempt",
      "exempt",
      "exempt",
      "exempt",
    ],
  },
  {
    name: "status and other subresources take a seat",
    options: { maxMutatingRequestsInFlight: 1 },
    calls: [
      { method: "PUT", path: "/api/v1/namespaces/ns/pods/p/status" },
      { method: "POST", path: "/api/v1/namespaces/ns/pods/p/eviction" },
    ],
    want: ["admitted", "rejected"],
  },
  {
    name: "a system:masters user over the limit is served without a seat",
    options: { maxRequestsInFlight: 1 },
    calls: [get, { ...get, user: admin }, get],
    want: ["admitted", "exempt", "rejected"],
  },
  {
    name: "a system:masters user takes a seat while there is one",
    options: { maxRequestsInFlight: 1 },
    calls: [{ ...get, user: admin }, get],
    want: ["admitted", "rejected"],
  },
  {
    name: "0 means no limit for that pool only",
    options: { maxRequestsInFlight: 0, maxMutatingRequestsInFlight: 1 },
    calls: [get, get, get, post, post],
    want: ["exempt", "exempt", "exempt", "admitted", "rejected"],
  },
  {
    name: "both limits 0 turn the limiter off",
    options: { maxRequestsInFlight: 0, maxMutatingRequestsInFlight: 0 },
    calls: [get, post],
    want: ["exempt", "exempt"],
  },
  {
    name: "the defaults are 400 read-only and 200 mutating",
    options: {},
    calls: [...Array<Call>(400).fill(get), get, ...Array<Call>(200).fill(post), post],
    want: [
      ...Array<string>(400).fill("admitted"),
      "rejected",
      ...Array<string>(200).fill("admitted"),
      "rejected",
    ],
  },
] as const;

for (const c of admitCases) {
  test(`MaxInFlightLimiter.admit: ${c.name}`, () => {
    assert.deepEqual(admitAll(c.options, c.calls), c.want);
  });
}

test("MaxInFlightLimiter.admit: a released seat is free again, and releasing twice frees one seat", () => {
  const limiter = newMaxInFlightLimiter({ maxRequestsInFlight: 2 });
  const info = parseRequestInfo("GET", "/api/v1/pods", false);
  const first = limiter.admit(info, anonymous);
  const second = limiter.admit(info, anonymous);
  assert.equal(limiter.admit(info, anonymous).kind, "rejected");
  assert.deepEqual(limiter.inFlight(), { readOnly: 2, mutating: 0 });
  if (first.kind !== "admitted" || second.kind !== "admitted") {
    assert.fail(`expected two seats, got ${first.kind} and ${second.kind}`);
  }
  first.seat.release();
  first.seat.release();
  assert.deepEqual(limiter.inFlight(), { readOnly: 1, mutating: 0 });
  assert.equal(limiter.admit(info, anonymous).kind, "admitted");
  assert.equal(limiter.admit(info, anonymous).kind, "rejected");
});

const invalidCases = [
  {
    name: "a negative read-only limit",
    options: { maxRequestsInFlight: -1 },
    want: "--max-requests-inflight can not be negative value",
  },
  {
    name: "a negative mutating limit",
    options: { maxMutatingRequestsInFlight: -5 },
    want: "--max-mutating-requests-inflight can not be negative value",
  },
  {
    name: "a fractional limit",
    options: { maxRequestsInFlight: 1.5 },
    want: "--max-requests-inflight must be a whole number of requests, not 1.5",
  },
] as const;

for (const c of invalidCases) {
  test(`newMaxInFlightLimiter: ${c.name} is a RangeError`, () => {
    assert.throws(() => newMaxInFlightLimiter(c.options), new RangeError(c.want));
  });
}

test("isLongRunning: a pod named like a streaming subresource is not long-running", () => {
  assert.equal(
    isLongRunning(parseRequestInfo("GET", "/api/v1/namespaces/ns/pods/log", false)),
    false,
  );
});
