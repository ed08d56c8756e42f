/**
 * The leader election flags kube-scheduler and kube-controller-manager share
 * (component-base's `LeaderElectionConfiguration`), with upstream's defaults.
 */
import { type LeaderElectionConfig, validateLeaderElectionConfig } from "../client/index.ts";
import { parseDuration } from "../util/index.ts";
import { UsageError } from "./usage-error.ts";

/** The flags for node's `parseArgs`; every value is a string (`--leader-elect=false` too). */
export const leaderElectionFlags = {
  "leader-elect": { type: "string" },
  "leader-elect-lease-duration": { type: "string", default: "15s" },
  "leader-elect-renew-deadline": { type: "string", default: "10s" },
  "leader-elect-retry-period": { type: "string", default: "2s" },
  "leader-elect-resource-lock": { type: "string", default: "leases" },
  "leader-elect-resource-name": { type: "string" },
  "leader-elect-resource-namespace": { type: "string" },
} as const;

type FlagValues = { readonly [K in keyof typeof leaderElectionFlags]?: string | undefined };

/** The election a component runs, or `undefined` with `--leader-elect=false`. */
export type ElectionSettings = Omit<LeaderElectionConfig, "identity" | "releaseOnCancel">;

/** The help text of the flags, given the component's lease name and namespace. */
export function leaderElectionUsage(name: string, namespace: string): string {
  return `Leader election (two copies can run; only the holder of the Lease acts):
  --leader-elect=true|false
                       Take part in leader election before acting (default true)
  --leader-elect-lease-duration D
                       How long followers wait after the leader's last renewal was seen
                       before taking over (default 15s; Go durations: 15s, 1m30s, 500ms)
  --leader-elect-renew-deadline D
                       How long the leader retries a renewal before it stops leading and
                       exits (default 10s; less than the lease duration)
  --leader-elect-retry-period D
                       The wait between attempts to acquire or renew (default 2s)
  --leader-elect-resource-lock leases
                       The lock's kind; only leases (default leases)
  --leader-elect-resource-name NAME
                       The Lease's name (default ${name})
  --leader-elect-resource-namespace NS
                       The Lease's namespace (default ${namespace})
`;
}

/**
 * Bare `--leader-elect` means true, as pflag reads a bool flag; node's parseArgs wants a value
 * for a string option, so it is given one here.
 */
export function normalizeBoolFlags(argv: readonly string[]): string[] {
  return argv.map((arg) => (arg === "--leader-elect" ? "--leader-elect=true" : arg));
}

/** Validated settings from the flag values, or undefined when leader election is off. */
export function electionSettings(
  values: FlagValues,
  defaults: { readonly name: string; readonly namespace: string },
): ElectionSettings | undefined {
  if (!parseBool("leader-elect", values["leader-elect"] ?? "true")) return undefined;
  const lock = values["leader-elect-resource-lock"] ?? "leases";
  if (lock !== "leases") {
    throw new UsageError(
      `Cannot use --leader-elect-resource-lock "${lock}": only leases is supported`,
    );
  }
  const settings: ElectionSettings = {
    namespace: values["leader-elect-resource-namespace"] ?? defaults.namespace,
    name: values["leader-elect-resource-name"] ?? defaults.name,
    leaseDurationMs: duration("leader-elect-lease-duration", values, "15s"),
    renewDeadlineMs: duration("leader-elect-renew-deadline", values, "10s"),
    retryPeriodMs: duration("leader-elect-retry-period", values, "2s"),
  };
  try {
    validateLeaderElectionConfig({ ...settings, identity: "flags" });
  } catch (error: unknown) {
    if (error instanceof RangeError) {
      throw new UsageError(`Cannot use the leader election flags: ${error.message}`);
    }
    throw error;
  }
  return settings;
}

/** Go's `strconv.ParseBool`. */
function parseBool(flag: string, text: string): boolean {
  if (["1", "t", "T", "true", "TRUE", "True"].includes(text)) return true;
  if (["0", "f", "F", "false", "FALSE", "False"].includes(text)) return false;
  throw new UsageError(`Cannot use --${flag} "${text}": give true or false`);
}

function duration(
  flag: "leader-elect-lease-duration" | "leader-elect-renew-deadline" | "leader-elect-retry-period",
  values: FlagValues,
  fallback: string,
): number {
  const text = values[flag] ?? fallback;
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) {
    throw new UsageError(
      `Cannot use --${flag} "${text}": give a positive Go duration such as 15s, 1m30s or 500ms`,
    );
  }
  return ms;
}
