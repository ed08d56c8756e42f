// kubectl's core/v1 event columns (printEvent): LAST SEEN TYPE REASON OBJECT MESSAGE, plus wide
// SUBOBJECT SOURCE FIRST SEEN COUNT NAME.

import { humanAge } from "./human-duration.ts";
import { column, nameDescription } from "./internal/columns.ts";
import { at, nameOf, type Obj, optNum, str } from "./internal/read.ts";
import type { PrintedRow, TablePrinter } from "./table.ts";

const columns = [
  column(
    "Last Seen",
    "string",
    "The time at which the most recent occurrence of this event was recorded.",
  ),
  column(
    "Type",
    "string",
    "Type of this event (Normal, Warning), new types could be added in the future",
  ),
  column(
    "Reason",
    "string",
    "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
  ),
  column("Object", "string", "The object that this event is about."),
  column(
    "Subobject",
    "string",
    'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
    { priority: 1 },
  ),
  column(
    "Source",
    "string",
    "The component reporting this event. Should be a short machine understandable string.",
    {
      priority: 1,
    },
  ),
  column("Message", "string", "A human-readable description of the status of this operation."),
  column(
    "First Seen",
    "string",
    "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)",
    { priority: 1 },
  ),
  column("Count", "string", "The number of times this event has occurred.", { priority: 1 }),
  column("Name", "string", nameDescription, { format: "name", priority: 1 }),
] as const;

function isSet(value: unknown): boolean {
  return typeof value === "string" && value !== "" && !value.startsWith("0001-01-01T00:00:00");
}

/** `formatEventSource`: component (or reportingController), then `, host` when known. */
function eventSource(event: Obj): string {
  const component = str(event, "source", "component") || str(event, "reportingController");
  const instance = str(event, "source", "host") || str(event, "reportingInstance");
  return instance === "" ? component : `${component}, ${instance}`;
}

/** `printEvent`: one row of `kubectl get events`. */
export function printEventRow(event: Obj, now: Date): PrintedRow {
  const first = at(event, "firstTimestamp");
  const firstSeen = isSet(first) ? humanAge(first, now) : humanAge(at(event, "eventTime"), now);
  let lastSeen = isSet(at(event, "lastTimestamp"))
    ? humanAge(at(event, "lastTimestamp"), now)
    : firstSeen;
  let count = optNum(event, "count") ?? 0;
  const series = at(event, "series");
  if (typeof series === "object" && series !== null) {
    lastSeen = humanAge(at(series, "lastObservedTime"), now);
    count = optNum(series, "count") ?? 0;
  } else if (count === 0) {
    count = 1; // singleton events of the events.k8s.io API carry no count
  }
  const kind = str(event, "involvedObject", "kind").toLowerCase();
  const involvedName = str(event, "involvedObject", "name");
  return {
    cells: [
      lastSeen,
      str(event, "type"),
      str(event, "reason"),
      involvedName === "" ? kind : `${kind}/${involvedName}`,
      str(event, "involvedObject", "fieldPath"),
      eventSource(event),
      str(event, "message").trim(),
      firstSeen,
      count,
      nameOf(event),
    ],
  };
}

/** Printer for core/v1 events. */
export const eventPrinter: TablePrinter = { columns, printRow: printEventRow };
