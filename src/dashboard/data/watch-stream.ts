/** Reads a watch response: one JSON event per line (`{"type":"ADDED","object":{…}}`). */

export interface WatchEvent<T> {
  readonly type: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";
  readonly object: T;
}

/** The events of `body` in order; ends when the server ends the response. */
export async function* watchEvents<T>(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<WatchEvent<T>> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line !== "") yield JSON.parse(line) as WatchEvent<T>;
        newline = buffered.indexOf("\n");
      }
      if (done) break;
    }
    if (buffered.trim() !== "") yield JSON.parse(buffered) as WatchEvent<T>;
  } finally {
    // Ends the response when the reader stops early; a stream that already failed keeps the
    // error it failed with, which the caller has seen.
    await reader.cancel().catch((error: unknown) => error);
  }
}
