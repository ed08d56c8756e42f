import type { AuditSink } from "./request-auditor.ts";

/** Where the log's text goes: a file (with rotation) or standard output. */
export interface LineWriter {
  /** Appends `text` (whole lines); resolves once it is written. */
  write(text: string): Promise<void>;
  /** Releases the file; later writes fail. */
  close(): Promise<void>;
}

export interface AuditLogOptions {
  /**
   * Event text held while the writer is behind; events beyond it are dropped (counted by
   * `dropped`) rather than slowing requests down. @default 64 MiB
   */
  readonly maxBufferedBytes?: number;
  /** Hears a failed write (the events in it are lost). @default ignored */
  readonly onError?: (error: unknown) => void;
  /** Counts events: written to the buffer, or dropped. @default none */
  readonly observe?: (outcome: "buffered" | "dropped") => void;
}

/** The audit log backend: buffered, asynchronous, flushed on close. */
export interface AuditLog extends AuditSink, AsyncDisposable {
  /** Resolves once every event processed so far is written. */
  flush(): Promise<void>;
  /** Flushes, then closes the writer. Idempotent. */
  close(): Promise<void>;
}

/**
 * Event lines are buffered and written in batches after the current turn of the event loop, so a
 * request pays for encoding its events but never waits for the disk. Writes are serialised: the
 * batch gathered while one is being written goes out next, in order.
 */
export function newAuditLog(writer: LineWriter, options: AuditLogOptions = {}): AuditLog {
  const maxBuffered = options.maxBufferedBytes ?? 64 * 1024 * 1024;
  let buffer: string[] = [];
  let buffered = 0;
  let scheduled = false;
  let writing: Promise<void> = Promise.resolve();
  let closed: Promise<void> | undefined;

  const drain = (): Promise<void> => {
    scheduled = false;
    if (buffer.length === 0) return writing;
    const text = `${buffer.join("\n")}\n`;
    buffer = [];
    buffered = 0;
    writing = writing.then(() =>
      writer.write(text).catch((error: unknown) => options.onError?.(error)),
    );
    return writing;
  };

  const flush = async (): Promise<void> => {
    await drain();
  };

  return {
    process(line) {
      if (closed !== undefined || buffered + line.length > maxBuffered) {
        options.observe?.("dropped");
        return;
      }
      buffer.push(line);
      buffered += line.length + 1;
      options.observe?.("buffered");
      if (!scheduled) {
        scheduled = true;
        setImmediate(drain);
      }
    },
    flush,
    close() {
      closed ??= flush().then(() => writer.close());
      return closed;
    },
    [Symbol.asyncDispose]() {
      return this.close();
    },
  };
}
