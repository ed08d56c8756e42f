/**
 * One watch event as it goes on the wire: the newline-terminated JSON line
 * (`{"type":…,"object":…}\n`) inside an HTTP/1.1 chunk (`<size in hex>\r\n<line>\r\n`), encoded to
 * bytes once, so every watcher of the same encoding writes the same buffer.
 */
export interface EventFrame {
  /** The whole HTTP chunk: size line, the event's line, CRLF. */
  readonly chunk: Buffer;
  /** The event's line alone (a view into `chunk`), for a response that is not chunked. */
  readonly line: Buffer;
}

/** Frames `{"type":"TYPE","object":OBJECT}\n`; `objectJson` is the object's JSON text. */
export function eventFrame(type: string, objectJson: string): EventFrame {
  return frameLine(`{"type":"${type}","object":${objectJson}}\n`);
}

/** Frames a line of text as an HTTP chunk. */
export function frameLine(text: string): EventFrame {
  const size = Buffer.byteLength(text, "utf8");
  const head = `${size.toString(16)}\r\n`;
  const chunk = Buffer.allocUnsafe(head.length + size + 2);
  chunk.write(head, 0, "latin1");
  chunk.write(text, head.length, "utf8");
  chunk[head.length + size] = 0x0d;
  chunk[head.length + size + 1] = 0x0a;
  return { chunk, line: chunk.subarray(head.length, head.length + size) };
}

/**
 * The frames of the event being fanned out. The watch cache hands one event to all its watchers
 * in one synchronous pass (`ResourceCache`), so remembering the last object's frames (one per
 * event type, which a selector can turn into ADDED or DELETED for some watchers, and per
 * encoding variant) lets the second and later watchers reuse the first one's bytes. Nothing is
 * kept beyond the next object: the frames of one event live only as long as the sockets
 * writing them.
 */
export class FrameMemo {
  #object: object | undefined;
  readonly #frames = new Map<string, EventFrame>();

  /**
   * The frame of `variant` (event type plus anything else the bytes depend on) for `object`,
   * made by `make` the first time it is asked for since `object` became the current one.
   */
  get(object: object, variant: string, make: () => EventFrame): EventFrame {
    if (this.#object !== object) {
      this.#object = object;
      this.#frames.clear();
    }
    let frame = this.#frames.get(variant);
    if (frame === undefined) {
      frame = make();
      this.#frames.set(variant, frame);
    }
    return frame;
  }
}
