/** Structured key-value context for a log line, in the spirit of klog's `KObj`. */
export type LogFields = Readonly<Record<string, unknown>>;

/** A structured logger. `v` levels follow klog: 0 always, 2 useful, 4 debug, 6+ trace. */
export interface Logger {
  info(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** Logs only when the configured verbosity is at least `level`. */
  v(level: number): Pick<Logger, "info">;
  /** A logger that adds `fields` to every line. */
  with(fields: LogFields): Logger;
}

/** Where a JSON logger writes each line (without the trailing newline). */
export type LineSink = (line: string) => void;

export interface JsonLoggerOptions {
  /** Lines with a `v` level above this are dropped. @default 0 */
  readonly verbosity?: number;
  /** The time source for the `ts` field. @default () => new Date() */
  readonly now?: () => Date;
}

/** A logger that writes one JSON object a line: `{"ts","level","msg",...fields}`. */
export function newJsonLogger(sink: LineSink, options: JsonLoggerOptions = {}): Logger {
  const verbosity = options.verbosity ?? 0;
  const now = options.now ?? (() => new Date());
  const make = (context: LogFields): Logger => {
    const write = (level: string, message: string, fields?: LogFields): void => {
      sink(
        JSON.stringify(
          { ts: now().toISOString(), level, msg: message, ...context, ...fields },
          safe,
        ),
      );
    };
    const silent: Pick<Logger, "info"> = { info: () => undefined };
    return {
      info: (message, fields) => write("info", message, fields),
      error: (message, fields) => write("error", message, fields),
      v: (level) => (level <= verbosity ? { info: (m, f) => write(`v${level}`, m, f) } : silent),
      with: (fields) => make({ ...context, ...fields }),
    };
  };
  return make({});
}

/** A logger that drops everything, for tests that do not look at logs. */
export const discardLogger: Logger = {
  info: () => undefined,
  error: () => undefined,
  v: () => ({ info: () => undefined }),
  with: () => discardLogger,
};

function safe(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (typeof value === "bigint") return value.toString();
  return value;
}
