import assert from "node:assert/strict";
import { test } from "node:test";
import { eventPrinter, printEventRow } from "./event.ts";
import type { TableCell } from "./table.ts";

const now = new Date("2024-06-01T12:00:00Z");

type Json = Record<string, unknown>;

const base: Json = {
  apiVersion: "v1",
  kind: "Event",
  metadata: { name: "web-1.17a", namespace: "default" },
  involvedObject: {
    kind: "Pod",
    name: "web-1",
    namespace: "default",
    fieldPath: "spec.containers{app}",
  },
  reason: "Scheduled",
  message: "Successfully assigned default/web-1 to n1 \n",
  type: "Normal",
  source: { component: "default-scheduler" },
};

const cases: { name: string; event: Json; want: TableCell[] }[] = [
  {
    name: "classic event with first/last timestamps and count",
    event: {
      ...base,
      firstTimestamp: "2024-06-01T11:50:00Z",
      lastTimestamp: "2024-06-01T11:58:00Z",
      count: 3,
    },
    want: [
      "2m",
      "Normal",
      "Scheduled",
      "pod/web-1",
      "spec.containers{app}",
      "default-scheduler",
      "Successfully assigned default/web-1 to n1",
      "10m",
      3,
      "web-1.17a",
    ],
  },
  {
    name: "events.k8s.io style event uses eventTime, reporting controller and count 1",
    event: {
      ...base,
      source: {},
      eventTime: "2024-06-01T11:59:00.000000Z",
      reportingController: "gantry-scheduler",
      reportingInstance: "sched-1",
    },
    want: [
      "60s",
      "Normal",
      "Scheduled",
      "pod/web-1",
      "spec.containers{app}",
      "gantry-scheduler, sched-1",
      "Successfully assigned default/web-1 to n1",
      "60s",
      1,
      "web-1.17a",
    ],
  },
  {
    name: "series overrides last seen and count",
    event: {
      ...base,
      eventTime: "2024-06-01T11:00:00.000000Z",
      series: { count: 7, lastObservedTime: "2024-06-01T11:59:30.000000Z" },
      involvedObject: { kind: "Node", name: "" },
    },
    want: [
      "30s",
      "Normal",
      "Scheduled",
      "node",
      "",
      "default-scheduler",
      "Successfully assigned default/web-1 to n1",
      "60m",
      7,
      "web-1.17a",
    ],
  },
];

for (const c of cases) {
  test(`eventPrinter.printRow: ${c.name}`, () => {
    assert.deepEqual(printEventRow(c.event, now).cells, c.want);
  });
}

test("eventPrinter.columns: LAST SEEN TYPE REASON OBJECT MESSAGE by default", () => {
  assert.deepEqual(
    eventPrinter.columns.filter((c) => c.priority === 0).map((c) => c.name),
    ["Last Seen", "Type", "Reason", "Object", "Message"],
  );
});
