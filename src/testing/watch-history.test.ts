import assert from "node:assert/strict";
import { test } from "node:test";
import {
  checkWatchHistory,
  type ObservedEvent,
  type WatchEventType,
  type WriteRecord,
} from "./watch-history.ts";

const w = (
  key: string,
  type: WatchEventType,
  revision: number | undefined,
  acknowledged = revision !== undefined,
): WriteRecord => ({
  key,
  type,
  revision: revision === undefined ? undefined : BigInt(revision),
  acknowledged,
});
const e = (key: string, type: WatchEventType, revision: number): ObservedEvent => ({
  key,
  type,
  revision: BigInt(revision),
});

const writes = [
  w("a", "ADDED", 11),
  w("b", "ADDED", 12),
  w("a", "MODIFIED", 13),
  w("b", "DELETED", 14),
];
const all: readonly ObservedEvent[] = [
  e("a", "ADDED", 11),
  e("b", "ADDED", 12),
  e("a", "MODIFIED", 13),
  e("b", "DELETED", 14),
];
/** The events of `all` at these positions. */
const at = (...positions: number[]): ObservedEvent[] =>
  positions.map((p) => all[p] ?? assert.fail(`no event at ${p}`));

const cases = [
  {
    name: "streams that saw every write in order keep the contract",
    writes,
    streams: [
      { name: "w1", from: 10n, events: all },
      { name: "w2", from: 12n, events: all.slice(2) },
    ],
    want: [],
  },
  {
    name: "a write whose answer was lost may appear, once",
    writes: [...writes, w("c", "ADDED", undefined)],
    streams: [{ name: "w1", from: 10n, events: [...all, e("c", "ADDED", 15)] }],
    want: [],
  },
  {
    name: "an acknowledged delete without a revision explains its event",
    writes: [...writes.slice(0, 3), w("b", "DELETED", undefined, true)],
    streams: [{ name: "w1", from: 10n, events: all }],
    want: [],
  },
  {
    name: "an acknowledged delete no stream saw is missing",
    writes: [...writes, w("a", "DELETED", undefined, true)],
    streams: [{ name: "w1", from: 10n, events: all }],
    want: ["no stream saw the acknowledged write DELETED a@?"],
  },
  {
    name: "a gap after a reconnect is a lost event",
    writes,
    streams: [{ name: "w1", from: 10n, events: at(0, 1, 3) }],
    want: [
      "w1 missed 1 event(s) between 10 and 14: revisions 13",
      "no stream saw the acknowledged write MODIFIED a@13",
    ],
  },
  {
    name: "an event delivered twice is repeated",
    writes,
    streams: [{ name: "w1", from: 10n, events: at(0, 1, 1, 2, 3) }],
    want: ["w1: ADDED b@12 arrived after revision 12 (out of order or repeated)"],
  },
  {
    name: "events out of revision order break the order",
    writes,
    streams: [{ name: "w1", from: 10n, events: at(0, 2, 1, 3) }],
    want: ["w1: ADDED b@12 arrived after revision 13 (out of order or repeated)"],
  },
  {
    name: "an event nobody wrote is invented",
    writes,
    streams: [{ name: "w1", from: 10n, events: [...all, e("z", "ADDED", 15)] }],
    want: ["w1 saw ADDED z@15, which no client wrote"],
  },
  {
    name: "an event that differs from the acknowledged write is wrong",
    writes,
    streams: [{ name: "w1", from: 10n, events: [...at(0, 1), e("a", "DELETED", 13), ...at(3)] }],
    want: ["w1 saw DELETED a@13 but the write was MODIFIED a@13"],
  },
  {
    name: "streams that disagree on a revision are inconsistent",
    writes: [...writes, w("c", "ADDED", undefined), w("d", "ADDED", undefined)],
    streams: [
      { name: "w1", from: 10n, events: [...all, e("c", "ADDED", 15)] },
      { name: "w2", from: 10n, events: [...all, e("d", "ADDED", 15)] },
    ],
    want: ["w2 saw ADDED d@15 but w1 saw ADDED c@15"],
  },
  {
    name: "an acknowledged write no stream saw is missing from the union",
    writes: [...writes, w("c", "ADDED", 15)],
    streams: [{ name: "w1", from: 10n, events: all }],
    want: ["no stream saw the acknowledged write ADDED c@15"],
  },
] as const;

for (const c of cases) {
  test(`checkWatchHistory: ${c.name}`, () => {
    assert.deepEqual(checkWatchHistory(c.writes, c.streams), c.want);
  });
}
