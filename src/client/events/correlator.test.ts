import assert from "node:assert/strict";
import { test } from "node:test";
import type { Event } from "../../api/index.ts";
import { FakeClock } from "../../testing/index.ts";
import { combinedMessagePrefix, EventCorrelator } from "./correlator.ts";

/** An event as a recorder makes it: kubelet on node-0 about pod default/web. */
function event(reason: string, message: string, name = "web.1"): Event {
  return {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name, namespace: "default" },
    involvedObject: { kind: "Pod", namespace: "default", name: "web", uid: "u1", apiVersion: "v1" },
    reason,
    message,
    source: { component: "kubelet", host: "node-0" },
    count: 1,
    firstTimestamp: "2024-01-01T00:00:00Z",
    lastTimestamp: "2024-01-01T00:00:00Z",
    type: "Normal",
    reportingComponent: "kubelet",
    reportingInstance: "node-0",
  };
}

/** What a correlation comes to, without the volatile parts. */
function summary(result: ReturnType<EventCorrelator["correlate"]>) {
  if (result.skip) return "skip";
  return {
    name: result.event.metadata.name,
    count: result.event.count,
    message: result.event.message,
    patch: result.patch,
  };
}

const cases = [
  {
    name: "a new event is created as it is",
    events: [event("Pulled", "a")],
    want: [{ name: "web.1", count: 1, message: "a", patch: false }],
  },
  {
    name: "a repeat patches the first one with count + 1",
    events: [event("Pulled", "a", "web.1"), event("Pulled", "a", "web.2")],
    want: [
      { name: "web.1", count: 1, message: "a", patch: false },
      { name: "web.1", count: 2, message: "a", patch: true },
    ],
  },
  {
    name: "another message is another event",
    events: [event("Pulled", "a", "web.1"), event("Pulled", "b", "web.2")],
    want: [
      { name: "web.1", count: 1, message: "a", patch: false },
      { name: "web.2", count: 1, message: "b", patch: false },
    ],
  },
] as const;

for (const c of cases) {
  test(`EventCorrelator.correlate: ${c.name}`, () => {
    const correlator = new EventCorrelator(new FakeClock());
    assert.deepEqual(
      c.events.map((e) => summary(correlator.correlate(e))),
      c.want,
    );
  });
}

test("EventCorrelator.correlate: the 10th distinct message of a reason is combined, later ones bump it", () => {
  const correlator = new EventCorrelator(new FakeClock());
  const results = Array.from({ length: 12 }, (_, i) =>
    correlator.correlate(event("BackOff", `m${i}`, `web.${i}`)),
  );
  const messages = results.map((r) => (r.skip ? "skip" : r.event.message));
  assert.deepEqual(messages.slice(0, 9), ["m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"]);
  assert.deepEqual(messages.slice(9), [
    `${combinedMessagePrefix}m9`,
    `${combinedMessagePrefix}m10`,
    `${combinedMessagePrefix}m11`,
  ]);
  const combined = results.slice(9).map((r) => (r.skip ? undefined : r.event));
  assert.deepEqual(
    combined.map((e) => e?.count),
    [1, 2, 3],
  );
  assert.equal(new Set(combined.map((e) => e?.metadata.name)).size, 1, "one combined event");
});

test("EventCorrelator.correlate: similar events count afresh after 10 quiet minutes", async () => {
  const clock = new FakeClock();
  const correlator = new EventCorrelator(clock);
  for (let i = 0; i < 9; i++) correlator.correlate(event("BackOff", `m${i}`, `web.${i}`));
  await clock.advance(600_001);
  const result = correlator.correlate(event("BackOff", "m9", "web.9"));
  assert.equal(result.skip ? "skip" : result.event.message, "m9");
});

test("EventCorrelator.correlate: a source gets 25 events about an object, then one per 5 minutes", async () => {
  const clock = new FakeClock();
  const correlator = new EventCorrelator(clock, { maxEvents: 1000 });
  const results = Array.from({ length: 26 }, (_, i) =>
    correlator.correlate(event("Started", `m${i}`, `web.${i}`)),
  );
  assert.deepEqual(
    results.map((r) => r.skip),
    [...Array.from({ length: 25 }, () => false), true],
  );
  await clock.advance(299_000);
  assert.equal(correlator.correlate(event("Started", "x", "web.x")).skip, true, "not refilled yet");
  await clock.advance(2_000);
  assert.equal(correlator.correlate(event("Started", "y", "web.y")).skip, false, "one token back");
  const other = { ...event("Started", "z", "other.1"), involvedObject: { name: "other" } };
  assert.equal(correlator.correlate(other).skip, false, "another object has its own budget");
});

test("EventCorrelator.eventName: names are unique within one millisecond", () => {
  const correlator = new EventCorrelator(new FakeClock());
  const now = new Date("2024-01-01T00:00:00Z");
  const names = Array.from({ length: 100 }, () => correlator.eventName("web", now));
  assert.equal(new Set(names).size, 100, "100 distinct names");
  assert.match(names[0] ?? "", /^web\.[0-9a-f]+$/);
});
