import assert from "node:assert/strict";
import test from "node:test";
import { NodeCidrAllocator, PodIpAllocator } from "./ip-allocators.ts";

test("NodeCidrAllocator.allocate: lowest free range first, skipping reserved ones", () => {
  const cidrs = new NodeCidrAllocator("10.128.0.0/9", 24);
  cidrs.reserve("10.128.1.0/24");
  const got = [cidrs.allocate(), cidrs.allocate(), cidrs.allocate()];
  cidrs.release("10.128.0.0/24");
  got.push(cidrs.allocate());
  assert.deepEqual(got, ["10.128.0.0/24", "10.128.2.0/24", "10.128.3.0/24", "10.128.0.0/24"]);
});

test("NodeCidrAllocator.allocate: undefined once the subnet is used up", () => {
  const cidrs = new NodeCidrAllocator("10.0.0.0/23", 24);
  assert.deepEqual(
    [cidrs.allocate(), cidrs.allocate(), cidrs.allocate()],
    ["10.0.0.0/24", "10.0.1.0/24", undefined],
  );
});

test("PodIpAllocator.allocate: from .2 on, stable per pod, round-robin after release", () => {
  const ips = new PodIpAllocator("10.128.3.0/24");
  const a = ips.allocate("a");
  const b = ips.allocate("b");
  const again = ips.allocate("a");
  ips.release("a");
  const c = ips.allocate("c");
  assert.deepEqual([a, b, again, c], ["10.128.3.2", "10.128.3.3", "10.128.3.2", "10.128.3.4"]);
});

test("PodIpAllocator.restore: an address from a status is kept and not handed out again", () => {
  const ips = new PodIpAllocator("10.0.0.0/30");
  ips.restore("old", "10.0.0.1");
  assert.deepEqual([ips.allocate("new"), ips.allocate("more")], ["10.0.0.0", "10.0.0.2"]);
});
