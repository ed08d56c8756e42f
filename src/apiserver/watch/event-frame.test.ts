import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eventFrame, FrameMemo, frameLine } from "./event-frame.ts";

describe("eventFrame", () => {
  test("is the event's JSON line inside one HTTP chunk sized in bytes", () => {
    const frame = eventFrame("ADDED", '{"metadata":{"name":"ü-pod"}}');
    const line = '{"type":"ADDED","object":{"metadata":{"name":"ü-pod"}}}\n';
    const size = Buffer.byteLength(line);
    assert.equal(size, line.length + 1, "ü takes two bytes in UTF-8");
    assert.equal(frame.chunk.toString(), `${size.toString(16)}\r\n${line}\r\n`);
    assert.equal(frame.line.toString(), line);
    assert.equal(JSON.parse(frame.line.toString()).object.metadata.name, "ü-pod");
  });

  test("frames a long line with a multi-digit hex size", () => {
    const text = `${"x".repeat(70_000)}\n`;
    const frame = frameLine(text);
    assert.equal(frame.chunk.subarray(0, 7).toString(), "11171\r\n");
    assert.equal(frame.line.length, 70_001);
    assert.equal(frame.chunk.length, 7 + 70_001 + 2);
  });
});

describe("FrameMemo", () => {
  test("makes each variant once per object and forgets it for the next object", () => {
    const memo = new FrameMemo();
    const made: string[] = [];
    const make = (label: string) => () => {
      made.push(label);
      return frameLine(`${label}\n`);
    };
    const first = {};
    const a1 = memo.get(first, "ADDED", make("first ADDED"));
    const a2 = memo.get(first, "ADDED", make("first ADDED again"));
    const d1 = memo.get(first, "DELETED", make("first DELETED"));
    assert.equal(a1, a2, "the second watcher of the same event writes the same frame");
    assert.notEqual(a1, d1, "a type a selector changed is its own frame");
    const second = {};
    memo.get(second, "ADDED", make("second ADDED"));
    memo.get(first, "ADDED", make("first ADDED after second"));
    assert.deepEqual(made, [
      "first ADDED",
      "first DELETED",
      "second ADDED",
      "first ADDED after second",
    ]);
  });
});
