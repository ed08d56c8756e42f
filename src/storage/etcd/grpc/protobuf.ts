/**
 * The protobuf wire format, as much of it as etcd's messages and the OpenAPI v2 document use:
 * varints (int64, uint64, bool, enum), doubles, and length-delimited fields (bytes, string,
 * embedded messages). Integers are JavaScript numbers: exact below 2^53, which etcd's
 * revisions, counts and versions and OpenAPI's lengths stay under.
 */

/** Wire types (protobuf encoding spec). */
export const wireVarint = 0;
export const wire64Bit = 1;
export const wireBytes = 2;
export const wire32Bit = 5;

const two32 = 2 ** 32;

/** Bytes a varint of `value` (>= 0) takes. */
export function varintSize(value: number): number {
  let size = 1;
  let rest = value;
  while (rest >= 0x80) {
    rest = rest < two32 ? rest >>> 7 : Math.floor(rest / 128);
    size++;
  }
  return size;
}

/**
 * Builds one message in a growing buffer. `message(field, write)` writes an embedded message
 * in place and slides it right by the size of its length prefix once that is known, so nested
 * messages cost no buffers of their own.
 */
export class ProtoWriter {
  private buffer: Buffer;
  private pos: number;

  /** `reserve` bytes are left free at the start (for the gRPC frame header). */
  constructor(reserve = 0, capacity = 256) {
    this.buffer = Buffer.allocUnsafe(Math.max(capacity, reserve + 16));
    this.pos = reserve;
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.pos + bytes) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buffer.copy(grown, 0, 0, this.pos);
    this.buffer = grown;
  }

  /** A raw varint (no tag); `value` must be a non-negative integer below 2^53. */
  varint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`Cannot encode ${value} as a protobuf varint`);
    }
    this.ensure(10);
    const buffer = this.buffer;
    let rest = value;
    while (rest >= two32) {
      buffer[this.pos++] = (rest % 128) | 0x80;
      rest = Math.floor(rest / 128);
    }
    while (rest >= 0x80) {
      buffer[this.pos++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    buffer[this.pos++] = rest;
  }

  private tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  /** An int64/uint64/enum field; zero (proto3's default) is not written. */
  int(field: number, value: number | undefined): void {
    if (value === undefined || value === 0) return;
    this.tag(field, wireVarint);
    this.varint(value);
  }

  /** An int64/enum field written even when zero (a member of a oneof). */
  intAlways(field: number, value: number): void {
    this.tag(field, wireVarint);
    this.varint(value);
  }

  /** A bytes field written even when empty (a member of a oneof). */
  bytesAlways(field: number, value: Uint8Array): void {
    this.tag(field, wireBytes);
    this.varint(value.length);
    this.ensure(value.length);
    this.buffer.set(value, this.pos);
    this.pos += value.length;
  }

  /** A bool field; false is not written. */
  bool(field: number, value: boolean | undefined): void {
    if (value !== true) return;
    this.tag(field, wireVarint);
    this.ensure(1);
    this.buffer[this.pos++] = 1;
  }

  /** A double field (little-endian IEEE 754); zero (proto3's default) is not written. */
  double(field: number, value: number | undefined): void {
    if (value === undefined || value === 0) return;
    this.tag(field, wire64Bit);
    this.ensure(8);
    this.buffer.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /** A bytes field; empty is not written. */
  bytes(field: number, value: Uint8Array | undefined): void {
    if (value === undefined || value.length === 0) return;
    this.bytesAlways(field, value);
  }

  /** A string field (UTF-8); empty is not written. */
  string(field: number, value: string | undefined): void {
    if (value === undefined || value.length === 0) return;
    const size = Buffer.byteLength(value);
    this.tag(field, wireBytes);
    this.varint(size);
    this.ensure(size);
    this.buffer.write(value, this.pos, size, "utf8");
    this.pos += size;
  }

  /** An embedded message field, written by `write` (always written, even when empty). */
  message(field: number, write: (w: ProtoWriter) => void): void {
    this.tag(field, wireBytes);
    const start = this.pos;
    write(this);
    const length = this.pos - start;
    const prefix = varintSize(length);
    this.ensure(prefix);
    this.buffer.copyWithin(start + prefix, start, this.pos);
    this.pos = start;
    this.varint(length);
    this.pos += length;
  }

  /** The bytes written so far (a view on the writer's buffer, including the reserved start). */
  finish(): Buffer {
    return this.buffer.subarray(0, this.pos);
  }
}

/**
 * Reads one message: `next()` moves to the next field and returns its number (0 at the end);
 * then exactly one of the value readers, or `skip()`, consumes its value. Bytes fields are
 * views on the input (no copy).
 */
export class ProtoReader {
  private readonly buffer: Buffer;
  private pos: number;
  private readonly end: number;
  private wire = 0;

  constructor(buffer: Buffer, start = 0, end = buffer.length) {
    this.buffer = buffer;
    this.pos = start;
    this.end = end;
  }

  /** The next field's number, or 0 when the message ends. */
  next(): number {
    if (this.pos >= this.end) return 0;
    const key = this.varint();
    this.wire = key & 7;
    const field = Math.floor(key / 8);
    if (field === 0) throw new TypeError("Cannot decode protobuf: field number 0");
    return field;
  }

  /** A raw varint as a number (exact below 2^53; 64-bit ids lose low bits). */
  varint(): number {
    const buffer = this.buffer;
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new TypeError("Cannot decode protobuf: truncated varint");
      const byte = buffer[this.pos++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
    throw new TypeError("Cannot decode protobuf: varint longer than 10 bytes");
  }

  /** An int64/uint64/enum value. */
  int(): number {
    this.expect(wireVarint);
    return this.varint();
  }

  bool(): boolean {
    this.expect(wireVarint);
    return this.varint() !== 0;
  }

  double(): number {
    this.expect(wire64Bit);
    this.advance(8);
    return this.buffer.readDoubleLE(this.pos - 8);
  }

  /** A bytes value: a view on the input buffer. */
  bytes(): Buffer {
    this.expect(wireBytes);
    const length = this.varint();
    const start = this.pos;
    if (start + length > this.end) throw new TypeError("Cannot decode protobuf: truncated field");
    this.pos += length;
    return this.buffer.subarray(start, start + length);
  }

  string(): string {
    this.expect(wireBytes);
    const length = this.varint();
    const start = this.pos;
    if (start + length > this.end) throw new TypeError("Cannot decode protobuf: truncated field");
    this.pos += length;
    return this.buffer.toString("utf8", start, start + length);
  }

  /** An embedded message: a reader over its bytes. */
  message(): ProtoReader {
    this.expect(wireBytes);
    const length = this.varint();
    const start = this.pos;
    if (start + length > this.end) throw new TypeError("Cannot decode protobuf: truncated field");
    this.pos += length;
    return new ProtoReader(this.buffer, start, start + length);
  }

  /** Skips the current field's value (unknown fields are ignored, as protobuf requires). */
  skip(): void {
    switch (this.wire) {
      case wireVarint:
        this.varint();
        return;
      case wire64Bit:
        this.advance(8);
        return;
      case wireBytes:
        this.advance(this.varint());
        return;
      case wire32Bit:
        this.advance(4);
        return;
      default:
        throw new TypeError(`Cannot decode protobuf: unsupported wire type ${this.wire}`);
    }
  }

  private advance(bytes: number): void {
    if (this.pos + bytes > this.end) throw new TypeError("Cannot decode protobuf: truncated field");
    this.pos += bytes;
  }

  private expect(wire: number): void {
    if (this.wire !== wire) {
      throw new TypeError(`Cannot decode protobuf: wire type ${this.wire} where ${wire} belongs`);
    }
  }
}
