/**
 * The hashes a LeaderWorkerSet puts on its pods: the template revision key (upstream's
 * ControllerRevision hash of the leaderWorkerTemplate and networkConfig) and the group keys
 * (SHA-1 of `<namespace>/<leader>`). Pure.
 */
import { createHash } from "node:crypto";
import type { DefaultedLeaderWorkerSet } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

const alphanums = "bcdfghjklmnpqrstvwxz2456789";

/** `rand.SafeEncodeString`: each byte mapped onto consonants and digits (no bad words). */
function safeEncode(text: string): string {
  let out = "";
  for (const ch of text) out += alphanums[(ch.codePointAt(0) ?? 0) % alphanums.length];
  return out;
}

/** JSON with object keys sorted, as Go's encoding/json writes maps. */
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

/** 32-bit FNV-1 (Go's `fnv.New32`). */
function fnv32(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash = Math.imul(hash, 0x01000193) >>> 0;
    hash ^= byte;
  }
  return hash >>> 0;
}

/**
 * The `template-revision-hash` of a LeaderWorkerSet's current template (upstream's
 * `hashRevision(NewRevision(lws))`): FNV-1 over the patch
 * `{"spec":{"leaderWorkerTemplate":{…,"$patch":"replace"},"networkConfig":{…,"$patch":"replace"}}}`,
 * printed in decimal and safe-encoded. The same template always gives the same key; the values
 * differ from a real cluster's because Go and gantry serialise the template differently.
 */
export function templateRevisionKey(lws: DeepReadonly<DefaultedLeaderWorkerSet>): string {
  const patch = {
    spec: {
      leaderWorkerTemplate: { ...lws.spec.leaderWorkerTemplate, $patch: "replace" },
      networkConfig: { ...lws.spec.networkConfig, $patch: "replace" },
    },
  };
  return safeEncode(String(fnv32(new TextEncoder().encode(canonicalJson(patch)))));
}

/** `utils.Sha1Hash`: the 40-character hex SHA-1 of `text`. */
export function sha1Hex(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

/** `genGroupUniqueKey(namespace, leaderName)`: the `group-key` label of every pod of a group. */
export function groupKey(namespace: string, leaderName: string): string {
  return sha1Hex(`${namespace}/${leaderName}`);
}
