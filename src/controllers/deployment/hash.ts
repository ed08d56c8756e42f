/** The pod-template-hash: how a Deployment names its ReplicaSets and labels their pods. */
import type { PodTemplateSpec } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** `apps.DefaultDeploymentUniqueLabelKey`. */
export const podTemplateHashLabel = "pod-template-hash";

const alphanums = "bcdfghjklmnpqrstvwxz2456789";

/** `rand.SafeEncodeString`: maps each character onto consonants and digits (no vowels, no 0/1/3). */
export function safeEncodeString(text: string): string {
  let out = "";
  for (const ch of text) out += alphanums[(ch.codePointAt(0) ?? 0) % alphanums.length];
  return out;
}

/** 32-bit FNV-1a over bytes. */
export function fnv32a(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** JSON with object keys sorted, so equal templates always hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * `controller.ComputeHash`: FNV-1a (32 bit) of the template, then of the collision count as
 * 8 little-endian bytes when there is one, printed in decimal and safe-encoded. Upstream hashes
 * Go's spew dump of the struct; gantry hashes the canonical JSON, so the values differ from a
 * real cluster's while keeping every property that matters (deterministic, changes with the
 * template and the collision count, at most 10 characters of a DNS-safe alphabet).
 */
export function computeHash(
  template: DeepReadonly<PodTemplateSpec>,
  collisionCount: number | undefined,
): string {
  const body = new TextEncoder().encode(canonicalJson(template));
  let bytes = body;
  if (collisionCount !== undefined) {
    bytes = new Uint8Array(body.length + 8);
    bytes.set(body);
    new DataView(bytes.buffer).setUint32(body.length, collisionCount >>> 0, true);
  }
  return safeEncodeString(String(fnv32a(bytes)));
}
