// A reader for the protobuf wire format (proto2, as go-to-protobuf writes it). It knows nothing
// about schemas: it yields tags and raw values, and the decoder decides what they mean.

/** Protobuf wire types; 3 and 4 (groups) never occur in Kubernetes messages and are rejected. */
export const wireType = {
  varint: 0,
  fixed64: 1,
  bytes: 2,
  startGroup: 3,
  endGroup: 4,
  fixed32: 5,
} as const;

/** A malformed byte stream. The message follows gogo-protobuf's wording, which upstream returns. */
export class WireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WireError";
  }
}

/** Gogo's message for data that ends inside a value. */
export const unexpectedEof = "unexpected EOF";
/** Gogo's message for a varint longer than 64 bits. */
export const integerOverflow = "proto: integer overflow";
/** Gogo's message for a length that does not fit. */
export const invalidLength = "proto: negative length found during unmarshaling";

const utf8 = new TextDecoder("utf-8", { fatal: false });
const twoTo32 = 2 ** 32;

/** One field key: the field number and how its value is encoded. */
export interface Tag {
  readonly field: number;
  readonly wireType: number;
}

/** A 64-bit varint split in two unsigned 32-bit halves, so nothing is lost before it is typed. */
export interface Varint64 {
  readonly lo: number;
  readonly hi: number;
}

/**
 * Reads protobuf values from a byte array, front to back. Every read checks bounds and throws
 * WireError on malformed input; it never reads past the end.
 */
export class WireReader {
  readonly #buf: Uint8Array;
  #pos = 0;

  constructor(buf: Uint8Array) {
    this.#buf = buf;
  }

  /** True once every byte has been read. */
  done(): boolean {
    return this.#pos >= this.#buf.length;
  }

  /** Reads a field key. Field 0 and group wire types are malformed in Kubernetes messages. */
  tag(): Tag {
    const key = this.varint64();
    const type = key.lo & 7;
    const field = (key.lo >>> 3) + key.hi * 2 ** 29;
    if (field <= 0 || field > 0x1fffffff) {
      throw new WireError(`proto: illegal tag ${field} (wire type ${type})`);
    }
    if (type === wireType.endGroup) {
      throw new WireError("proto: wiretype end group for non-group");
    }
    return { field, wireType: type };
  }

  /** Reads a varint of up to 10 bytes as two 32-bit halves. */
  varint64(): Varint64 {
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (this.#pos >= this.#buf.length) throw new WireError(unexpectedEof);
      const byte = this.#buf[this.#pos++] ?? 0;
      const bits = byte & 0x7f;
      if (i < 4) {
        lo += bits * 2 ** (7 * i);
      } else if (i === 4) {
        lo += (bits & 0x0f) * 2 ** 28;
        hi += bits >>> 4;
      } else {
        hi += bits * 2 ** (7 * i - 32);
      }
      if (byte < 0x80) return { lo: lo >>> 0, hi: hi >>> 0 };
    }
    throw new WireError(integerOverflow);
  }

  /** An `int32` field: Go truncates the varint to its low 32 bits, read as signed. */
  int32(): number {
    return this.varint64().lo | 0;
  }

  /**
   * An `int64` field as a JavaScript number. Values outside ±2^53 cannot be represented exactly
   * and are rejected rather than rounded.
   */
  int64(): number {
    const { lo, hi } = this.varint64();
    const value = (hi | 0) * twoTo32 + lo;
    if (!Number.isSafeInteger(value)) {
      throw new WireError(`proto: int64 value out of the supported range (±2^53)`);
    }
    return value;
  }

  /** A `bool` field: any non-zero varint is true. */
  bool(): boolean {
    const { lo, hi } = this.varint64();
    return lo !== 0 || hi !== 0;
  }

  /** A length-delimited value (bytes, string, message, packed list); a view, not a copy. */
  bytes(): Uint8Array {
    const { lo, hi } = this.varint64();
    if (hi !== 0 || lo > 0x7fffffff) throw new WireError(invalidLength);
    const end = this.#pos + lo;
    if (end > this.#buf.length) throw new WireError(unexpectedEof);
    const view = this.#buf.subarray(this.#pos, end);
    this.#pos = end;
    return view;
  }

  /** A `string` field. Invalid UTF-8 becomes U+FFFD, as Go's JSON encoder would write it. */
  string(): string {
    return utf8.decode(this.bytes());
  }

  /** Skips a value of the given wire type (an unknown field). */
  skip(type: number): void {
    switch (type) {
      case wireType.varint:
        this.varint64();
        return;
      case wireType.fixed64:
        this.#advance(8);
        return;
      case wireType.bytes:
        this.bytes();
        return;
      case wireType.fixed32:
        this.#advance(4);
        return;
      default:
        throw new WireError(`proto: illegal wireType ${type}`);
    }
  }

  #advance(count: number): void {
    if (this.#pos + count > this.#buf.length) throw new WireError(unexpectedEof);
    this.#pos += count;
  }
}

/** Reads every varint in a packed repeated field with `read` (for example `r => r.int32()`). */
export function readPacked(bytes: Uint8Array, read: (reader: WireReader) => number): number[] {
  const reader = new WireReader(bytes);
  const values: number[] = [];
  while (!reader.done()) values.push(read(reader));
  return values;
}
