/** What the component commands (`gantry scheduler`, `controller-manager`, …) share. */
import { type Logger, newJsonLogger } from "../util/index.ts";
import { UsageError } from "./usage-error.ts";

/** Where a command writes: stdout and stderr of the process, or buffers in tests. */
export interface CommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** The flags of every component that talks to an API server. */
export const componentFlags = {
  kubeconfig: { type: "string" },
  v: { type: "string", default: "0" },
  help: { type: "boolean", default: false },
} as const;

export const componentFlagsUsage = `  --kubeconfig FILE    How to reach the API server (gantry apiserver writes DATA_DIR/kubeconfig)
  --v N                Log verbosity (default 0)
`;

/** The kubeconfig flag's value; a UsageError when it is missing. */
export function requiredKubeconfig(value: string | undefined, command: string): string {
  if (value === undefined || value === "") {
    throw new UsageError(
      `Missing --kubeconfig: gantry ${command} reaches the API server through a kubeconfig (gantry apiserver writes one to DATA_DIR/kubeconfig)`,
    );
  }
  return value;
}

/** JSON log lines on the command's stderr, at `--v` verbosity. */
export function commandLogger(verbosity: string, io: CommandIo): Logger {
  const level = Number(verbosity);
  if (!Number.isInteger(level) || level < 0) {
    throw new UsageError(`Cannot use --v "${verbosity}": give a whole number, 0 or more`);
  }
  return newJsonLogger((line) => io.err(`${line}\n`), { verbosity: level });
}
