import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { EventFrame } from "./event-frame.ts";

/**
 * Pending events beyond this many bytes are written at once rather than at the end of the loop
 * turn, so a large burst (a watch's initial events) leaves in pieces of about this size.
 */
const flushBytes = 256 * 1024;

/**
 * Writes one watch response's events. Events that become ready in the same event-loop turn
 * leave in one socket write at the end of that turn (`setImmediate`, shared by every watch, so
 * a turn costs one callback however many watchers it touched); nothing waits longer than the
 * turn. Once the response's headers are out on its own socket, the frames go to the socket
 * directly as ready-made HTTP chunks, skipping `ServerResponse`'s per-write chunk framing and
 * string encoding; otherwise they go through `res.write`.
 */
export class EventWriter {
  readonly #res: ServerResponse;
  readonly #stop: () => void;
  readonly #maxBufferedBytes: number;
  #pending: EventFrame[] = [];
  #pendingBytes = 0;
  #queued = false;
  #closed = false;

  /**
   * `stop` is called (once) when the watch cannot go on: the client left more than
   * `maxBufferedBytes` unread (the caller ends the watch, and the client re-lists), or a write
   * failed. Nothing is written afterwards.
   */
  constructor(res: ServerResponse, maxBufferedBytes: number, stop: () => void) {
    this.#res = res;
    this.#maxBufferedBytes = maxBufferedBytes;
    this.#stop = stop;
  }

  /** Queues a frame for the end of this turn; does nothing once closed. */
  write(frame: EventFrame): void {
    if (this.#closed) return;
    this.#pending.push(frame);
    this.#pendingBytes += frame.chunk.length;
    if (this.#pendingBytes >= flushBytes) {
      this.flush();
      return;
    }
    if (!this.#queued) {
      this.#queued = true;
      enqueue(this);
    }
  }

  /** Writes what is pending now. */
  flush(): void {
    const pending = this.#pending;
    if (pending.length === 0 || this.#closed) return;
    this.#pending = [];
    this.#pendingBytes = 0;
    const socket = directSocket(this.#res);
    if (socket !== undefined) {
      socket.write(pending.length === 1 ? (pending[0] as EventFrame).chunk : joinChunks(pending));
      if (socket.writableLength > this.#maxBufferedBytes) this.#abandon();
      return;
    }
    const res = this.#res;
    if (res.destroyed || res.writableEnded) return;
    res.cork();
    for (const frame of pending) res.write(frame.line);
    res.uncork();
    if (res.writableLength > this.#maxBufferedBytes) this.#abandon();
  }

  /**
   * Stops writing: flushes what is pending first when `flush` is true (the watch ends in order),
   * drops it otherwise.
   */
  close(flush: boolean): void {
    if (flush) this.flush();
    this.#closed = true;
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  /** Called by the turn's flush: a failure ends this watch only, not the turn's other ones. */
  flushQueued(): void {
    this.#queued = false;
    try {
      this.flush();
    } catch {
      this.#abandon();
    }
  }

  #abandon(): void {
    if (this.#closed) return;
    this.close(false);
    this.#stop();
  }
}

/**
 * The response's socket when frames can go to it directly: headers already written there,
 * nothing of the response still buffered in front of it, chunked encoding. Undefined otherwise
 * (a response waiting behind a pipelined one, a socket going away, any other response type).
 */
function directSocket(res: ServerResponse): Socket | undefined {
  const socket = res.socket;
  if (socket === null || !res.headersSent || !res.chunkedEncoding || res.writableEnded) {
    return undefined;
  }
  if (socket.destroyed || !socket.writable) return undefined;
  // `writableLength` of a response is what it still buffers itself plus its socket's.
  if (res.writableLength !== socket.writableLength) return undefined;
  return socket;
}

function joinChunks(frames: readonly EventFrame[]): Buffer {
  let size = 0;
  for (const frame of frames) size += frame.chunk.length;
  const joined = Buffer.allocUnsafe(size);
  let at = 0;
  for (const frame of frames) {
    frame.chunk.copy(joined, at);
    at += frame.chunk.length;
  }
  return joined;
}

let turn: EventWriter[] = [];

/** Flushes `writer` at the end of this loop turn, with every other writer that has events. */
function enqueue(writer: EventWriter): void {
  if (turn.length === 0) setImmediate(flushTurn);
  turn.push(writer);
}

function flushTurn(): void {
  const writers = turn;
  turn = [];
  for (const writer of writers) writer.flushQueued();
}
