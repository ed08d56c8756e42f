/** A mistake in the command line: printed without a stack trace, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Runs node's `parseArgs`, turning its TypeErrors (unknown option, missing value) into UsageErrors. */
export function parsingArgs<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error: unknown) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
}
