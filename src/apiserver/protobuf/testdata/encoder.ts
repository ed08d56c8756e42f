// A minimal protobuf writer for tests: builds the byte strings the decoder tests feed in.
// Test-only; production code never imports it.

/** Encodes a non-negative or negative integer as a varint (negatives as 10-byte two's complement). */
export function varint(value: number | bigint): Uint8Array {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out.push(byte);
  } while (v !== 0n);
  return Uint8Array.from(out);
}

/** Concatenates byte chunks. */
export function cat(...chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** A field key. */
export function key(field: number, wireType: number): Uint8Array {
  return varint(field * 8 + wireType);
}

/** A varint field (int32, int64, bool). */
export function int(field: number, value: number | bigint | boolean): Uint8Array {
  const n = typeof value === "boolean" ? (value ? 1 : 0) : value;
  return cat(key(field, 0), varint(n));
}

/** A length-delimited field holding raw bytes or an embedded message. */
export function bytes(field: number, value: Uint8Array): Uint8Array {
  return cat(key(field, 2), varint(value.length), value);
}

/** A length-delimited field holding UTF-8 text. */
export function str(field: number, value: string): Uint8Array {
  return bytes(field, new TextEncoder().encode(value));
}

/** A message field built from its fields. */
export function msg(field: number, ...fields: readonly Uint8Array[]): Uint8Array {
  return bytes(field, cat(...fields));
}

/** A Kubernetes protobuf body: magic, then runtime.Unknown {typeMeta, raw, "", ""}. */
export function envelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  return cat(
    Uint8Array.from([0x6b, 0x38, 0x73, 0x00]),
    msg(1, str(1, apiVersion), str(2, kind)),
    bytes(2, raw),
    str(3, ""),
    str(4, ""),
  );
}
