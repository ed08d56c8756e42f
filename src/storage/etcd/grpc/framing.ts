/**
 * gRPC's length-prefixed messages (gRPC over HTTP/2 spec, "Length-Prefixed-Message"): a
 * compressed flag byte, a 4-byte big-endian length, then the message.
 */

export const frameHeaderBytes = 5;

/**
 * Fills the first 5 bytes of `frame` (left free by the encoder) with the header of an
 * uncompressed message made of the rest, and returns it.
 */
export function frameMessage(frame: Buffer): Buffer {
  if (frame.length < frameHeaderBytes)
    throw new RangeError("Cannot frame a gRPC message: no header room");
  frame[0] = 0;
  frame.writeUInt32BE(frame.length - frameHeaderBytes, 1);
  return frame;
}

/**
 * Splits a DATA byte stream into messages, whatever the chunking: `push` returns every message
 * completed by the chunk (views on the received bytes when a message fits in one chunk).
 */
export class FrameParser {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The size (header included) of the message being received, once its header is in. */
  private needed = 0;

  /** Bytes received that do not yet make a whole message. */
  get buffered(): number {
    return this.pendingBytes;
  }

  push(chunk: Buffer): Buffer[] {
    if (chunk.length === 0) return [];
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.needed === 0 && this.pendingBytes >= frameHeaderBytes) {
      if ((this.pending[0] as Buffer).length < frameHeaderBytes) {
        this.pending = [Buffer.concat(this.pending, this.pendingBytes)];
      }
      this.needed = frameHeaderBytes + (this.pending[0] as Buffer).readUInt32BE(1);
    }
    // A large message arrives in many chunks: join them once, when the last one is in.
    if (this.needed === 0 || this.pendingBytes < this.needed) return [];
    const data =
      this.pending.length === 1
        ? (this.pending[0] as Buffer)
        : Buffer.concat(this.pending, this.pendingBytes);
    const messages: Buffer[] = [];
    let at = 0;
    while (data.length - at >= frameHeaderBytes) {
      const length = data.readUInt32BE(at + 1);
      if (data.length - at - frameHeaderBytes < length) break;
      if (data[at] !== 0) {
        throw new TypeError("Cannot read a gRPC message: it is compressed, and none was asked for");
      }
      messages.push(data.subarray(at + frameHeaderBytes, at + frameHeaderBytes + length));
      at += frameHeaderBytes + length;
    }
    const rest = data.subarray(at);
    this.pending = rest.length === 0 ? [] : [rest];
    this.pendingBytes = rest.length;
    this.needed = rest.length >= frameHeaderBytes ? frameHeaderBytes + rest.readUInt32BE(1) : 0;
    return messages;
  }
}
