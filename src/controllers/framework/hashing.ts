/**
 * The hashes controllers name things with: `rand.SafeEncodeString`, Go's FNV-1 and FNV-1a, the
 * JSON Go's encoding/json writes for a generic map, `controller.ComputeHash` (pod-template-hash,
 * DaemonSet revisions) and `history.HashControllerRevision`. Pure.
 */

const alphanums = "bcdfghjklmnpqrstvwxz2456789";

/** `rand.SafeEncodeString`: each character mapped onto consonants and digits (no bad words). */
export function safeEncodeString(text: string): string {
  let out = "";
  for (const ch of text) out += alphanums[(ch.codePointAt(0) ?? 0) % alphanums.length];
  return out;
}

const fnvOffset = 0x811c9dc5;
const fnvPrime = 0x01000193;

/** Go's `fnv.New32` (FNV-1: multiply, then xor) over `bytes`. */
export function fnv32(bytes: Uint8Array): number {
  let hash = fnvOffset;
  for (const byte of bytes) {
    hash = Math.imul(hash, fnvPrime) >>> 0;
    hash ^= byte;
  }
  return hash >>> 0;
}

/** Go's `fnv.New32a` (FNV-1a: xor, then multiply) over `bytes`. */
export function fnv32a(bytes: Uint8Array): number {
  let hash = fnvOffset;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, fnvPrime) >>> 0;
  }
  return hash >>> 0;
}

/** FNV-1a of a string's UTF-8 bytes, safe-encoded: the short hashes of generated names. */
export function shortHash(text: string): string {
  return safeEncodeString(String(fnv32a(utf8(text))));
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** The escapes Go's encoding/json adds to JSON.stringify's (HTML-safe, line separators). */
const goEscapes: Readonly<Record<string, string>> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

function goString(text: string): string {
  return JSON.stringify(text).replace(/[<>&\u2028\u2029]/g, (ch) => goEscapes[ch] ?? ch);
}

/**
 * What Go's `json.Marshal` writes for `value` decoded into `interface{}`: compact, object keys
 * sorted, `<`, `>`, `&` and the line separators escaped. Undefined members are left out. Equal
 * values always give equal text, whatever their key order.
 */
export function goJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${goString(k)}:${goJson(v)}`).join(",")}}`;
  }
  if (typeof value === "string") return goString(value);
  return JSON.stringify(value) ?? "null";
}

/**
 * `controller.ComputeHash`: FNV-1a over the template, then the collision count as 8 bytes (the
 * low 4 little-endian) when set, printed in decimal and safe-encoded. Upstream hashes Go's spew
 * dump of the struct; gantry hashes `goJson`, so values differ from a real cluster's while
 * keeping what matters: deterministic, changed by the template and the collision count, at most
 * 10 characters of a DNS-safe alphabet.
 */
export function computeHash(template: unknown, collisionCount: number | undefined): string {
  const body = utf8(goJson(template));
  let bytes = body;
  if (collisionCount !== undefined) {
    bytes = new Uint8Array(body.length + 8);
    bytes.set(body);
    new DataView(bytes.buffer).setUint32(body.length, collisionCount >>> 0, true);
  }
  return safeEncodeString(String(fnv32a(bytes)));
}

/**
 * `history.HashControllerRevision`: FNV-1 over the revision's raw data, then the collision count
 * (the probe) in decimal when set, printed in decimal and safe-encoded.
 */
export function hashControllerRevision(rawData: string, probe: number | undefined): string {
  const text = probe === undefined ? rawData : `${rawData}${probe}`;
  return safeEncodeString(String(fnv32(utf8(text))));
}
