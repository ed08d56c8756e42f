/**
 * The API server's audit and overload flags (`--audit-*`, `--enable-priority-and-fairness`,
 * `--request-timeout`, `--max-watches-per-user`), their checks, and the audit log they open.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import {
  type AuditLog,
  type AuditPolicy,
  newAuditLog,
  openAuditLogFile,
  parseAuditPolicy,
} from "../apiserver/index.ts";
import { errorMessage, type Logger, parseDuration, systemClock } from "../util/index.ts";
import { UsageError } from "./usage-error.ts";

/** Where and how the audit log is written. */
export interface AuditSettings {
  readonly policy: AuditPolicy;
  /** A file, or `-` for standard output. */
  readonly logPath: string;
  readonly maxSizeMB: number;
  readonly maxBackups: number;
  readonly maxAgeDays: number;
}

/** What the flags say about overload protection and auditing. */
export interface OverloadSettings {
  readonly enablePriorityAndFairness: boolean;
  readonly requestTimeoutMs: number;
  readonly maxWatchesPerUser: number;
  /** Undefined without both `--audit-policy-file` and `--audit-log-path`: nothing is audited. */
  readonly audit?: AuditSettings;
}

export const overloadFlags = {
  "enable-priority-and-fairness": { type: "string", default: "true" },
  "request-timeout": { type: "string", default: "1m0s" },
  "max-watches-per-user": { type: "string", default: "1000" },
  "audit-policy-file": { type: "string" },
  "audit-log-path": { type: "string" },
  "audit-log-maxsize": { type: "string", default: "0" },
  "audit-log-maxbackup": { type: "string", default: "0" },
  "audit-log-maxage": { type: "string", default: "0" },
  "audit-log-format": { type: "string", default: "json" },
} as const;

export const overloadFlagsUsage = `  --enable-priority-and-fairness=BOOL
                       API priority and fairness (default true): upstream's priority levels
                       share the two in-flight limits' seats, and each user's requests wait
                       in fair queues (at most a quarter of --request-timeout, then 429);
                       false: the two limits alone, 429 at once when full
  --request-timeout DURATION
                       How long a request other than a watch, exec, log or proxy may take
                       before it is answered 504 and abandoned (default 1m0s)
  --max-watches-per-user N
                       Watches one user may have open at once; more get 429 (default 1000;
                       0 = no limit; system:masters are not counted). gantry's own flag
  --audit-policy-file FILE
                       An audit.k8s.io/v1 Policy (YAML or JSON): which requests are logged,
                       at which level (None, Metadata, Request, RequestResponse)
  --audit-log-path FILE
                       Where audit events go, one JSON line each; - for standard output.
                       Auditing needs both this and --audit-policy-file
  --audit-log-maxsize MB
                       Rotate the audit log before it grows past this (default 0: 100 MB)
  --audit-log-maxbackup N
                       Rotated audit logs to keep (default 0: all)
  --audit-log-maxage DAYS
                       Days to keep rotated audit logs (default 0: no age limit)
  --audit-log-format json
                       The audit log's format; only json (the default) is supported
`;

type Values = { readonly [K in keyof typeof overloadFlags]?: string | undefined };

/** Checks the flags and reads the audit policy now; a UsageError names the first wrong one. */
export function overloadSettings(values: Values): OverloadSettings {
  const pf = values["enable-priority-and-fairness"] ?? "true";
  const enablePriorityAndFairness = goBool(pf);
  if (enablePriorityAndFairness === undefined) {
    throw new UsageError(
      `Cannot use --enable-priority-and-fairness "${pf}": give true or false (--enable-priority-and-fairness=false)`,
    );
  }
  const timeoutText = values["request-timeout"] ?? "1m0s";
  const requestTimeoutMs = parseDuration(timeoutText);
  if (requestTimeoutMs === undefined || requestTimeoutMs <= 0) {
    throw new UsageError(
      `Cannot use --request-timeout "${timeoutText}": give a positive duration such as 1m0s or 30s`,
    );
  }
  const maxWatchesPerUser = wholeNumber(values, "max-watches-per-user", "1000");
  const format = values["audit-log-format"] ?? "json";
  if (format !== "json") {
    throw new UsageError(`Cannot use --audit-log-format "${format}": gantry writes json only`);
  }
  const policyFile = values["audit-policy-file"];
  const logPath = values["audit-log-path"];
  const settings = { enablePriorityAndFairness, requestTimeoutMs, maxWatchesPerUser };
  const rotation = {
    maxSizeMB: wholeNumber(values, "audit-log-maxsize", "0"),
    maxBackups: wholeNumber(values, "audit-log-maxbackup", "0"),
    maxAgeDays: wholeNumber(values, "audit-log-maxage", "0"),
  };
  if (policyFile === undefined || logPath === undefined || logPath === "") return settings;
  return { ...settings, audit: { policy: readAuditPolicy(policyFile), logPath, ...rotation } };
}

/** Reads and validates an audit policy file; a UsageError with upstream's message otherwise. */
export function readAuditPolicy(file: string): AuditPolicy {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error: unknown) {
    throw new UsageError(`Cannot read --audit-policy-file "${file}": ${errorMessage(error)}`);
  }
  try {
    return parseAuditPolicy(text, file);
  } catch (error: unknown) {
    if (error instanceof TypeError) {
      throw new UsageError(`Cannot use --audit-policy-file: ${error.message}`);
    }
    throw error;
  }
}

/**
 * Opens the audit log the settings name: a rotating file, or standard output for `-`. Failed
 * writes are logged, not fatal.
 */
export async function openAuditLog(settings: AuditSettings, logger: Logger): Promise<AuditLog> {
  const writer =
    settings.logPath === "-"
      ? {
          write: (text: string) =>
            new Promise<void>((resolve, reject) =>
              process.stdout.write(text, (error) => (error ? reject(error) : resolve())),
            ),
          close: async () => undefined,
        }
      : await openAuditLogFile({
          path: settings.logPath,
          maxSizeMB: settings.maxSizeMB,
          maxBackups: settings.maxBackups,
          maxAgeDays: settings.maxAgeDays,
          now: () => systemClock.now(),
        });
  return newAuditLog(writer, {
    onError: (error) =>
      logger.error("Cannot write the audit log", { path: settings.logPath, error }),
  });
}

/** Epoch milliseconds with microseconds, for audit timestamps. */
export const preciseNow = (): number => performance.timeOrigin + performance.now();

function wholeNumber(values: Values, flag: keyof typeof overloadFlags, fallback: string): number {
  const text = values[flag] ?? fallback;
  const value = Number(text);
  if (text.trim() === "" || !Number.isSafeInteger(value) || value < 0) {
    throw new UsageError(`Cannot use --${flag} "${text}": give a whole number, 0 or more`);
  }
  return value;
}

/** Go's `strconv.ParseBool`. */
function goBool(text: string): boolean | undefined {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(text)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(text)) return false;
  return undefined;
}
