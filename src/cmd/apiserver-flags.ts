/** The API server's flags, shared by `gantry up` and `gantry apiserver`, and their checks. */
import type { AllInOneOptions } from "./all-in-one.ts";
import { plainHttpRefusal } from "./all-in-one.ts";
import { isLoopbackAddress } from "./tls.ts";
import { UsageError } from "./usage-error.ts";

/** The flags for node's `parseArgs`. */
export const apiServerFlags = {
  "data-dir": { type: "string", default: "./.gantry" },
  port: { type: "string", default: "6443" },
  address: { type: "string", default: "127.0.0.1" },
  tls: { type: "boolean", default: false },
  "tls-san": { type: "string", multiple: true, default: [] as string[] },
  storage: { type: "string", default: "sqlite" },
  "etcd-endpoints": { type: "string" },
  "etcd-prefix": { type: "string" },
  "max-requests-inflight": { type: "string", default: "400" },
  "max-mutating-requests-inflight": { type: "string", default: "200" },
  "gang-admission": { type: "string", default: "lenient" },
  "authorization-mode": { type: "string" },
  "token-auth-file": { type: "string" },
  v: { type: "string", default: "0" },
  help: { type: "boolean", default: false },
} as const;

export const apiServerFlagsUsage = `  --data-dir DIR       Where state and the kubeconfig live (default ./.gantry)
  --port P             Port to listen on (default 6443; 0 picks a free one)
  --address A          Address to bind (default 127.0.0.1). Plain http is allowed only on
                       a loopback address; any other address needs --tls
  --tls                Serve https: generate (or reuse) a CA, a serving certificate and an
                       admin bearer token in DATA_DIR/pki, and require the token
  --tls-san NAME       Another DNS name or IP address for the serving certificate
                       (repeatable, or comma-separated); needs --tls
  --storage KIND       memory | sqlite | etcd (default sqlite)
  --etcd-endpoints URL[,URL...]
                       The etcd members' client URLs, for --storage etcd
                       (http://127.0.0.1:2379)
  --etcd-prefix P      The prefix of every key in etcd (default /registry)
  --max-requests-inflight N
                       Read-only requests served at once (default 400; 0 = no limit);
                       beyond it: 429 with Retry-After: 1. Watches are not counted
  --max-mutating-requests-inflight N
                       Mutating requests served at once (default 200; 0 = no limit)
  --gang-admission MODE
                       lenient | strict (default lenient). strict rejects at creation a pod
                       naming a PodGroup that does not exist, and a PodGroup whose Workload
                       or template does not exist (403 Forbidden)
  --authorization-mode MODE
                       RBAC | AlwaysAllow (default RBAC with --tls, AlwaysAllow on plain
                       http, where kubectl sends no credentials and everyone is anonymous)
  --token-auth-file FILE
                       Users by bearer token, one per line: token,user,uid,"group1,group2"
                       (kube-apiserver's static token file); in both modes, beside the
                       admin token
  --v N                Log verbosity (default 0)
`;

type Values = {
  readonly [K in Exclude<keyof typeof apiServerFlags, "tls" | "tls-san" | "help">]?: string;
} & { readonly tls?: boolean; readonly "tls-san"?: readonly string[] };

/** What the flags say about the API server, checked: the options `startAllInOne` takes. */
export type ApiServerSettings = Pick<
  AllInOneOptions,
  | "dataDir"
  | "port"
  | "address"
  | "storage"
  | "etcd"
  | "tls"
  | "maxRequestsInFlight"
  | "maxMutatingRequestsInFlight"
  | "gangAdmission"
  | "authorizationMode"
  | "tokenAuthFile"
>;

/** Checks the flag values; a UsageError names the first wrong one. */
export function apiServerSettings(values: Values): ApiServerSettings {
  const address = values.address ?? "127.0.0.1";
  const tls = values.tls === true;
  const tlsSans = (values["tls-san"] ?? []).flatMap((value) =>
    value
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== ""),
  );
  if (!tls && tlsSans.length > 0) {
    throw new UsageError(
      "Cannot use --tls-san without --tls: it names the https certificate's hosts",
    );
  }
  if (!tls && !isLoopbackAddress(address)) throw new UsageError(plainHttpRefusal(address));
  const storage = values.storage ?? "sqlite";
  if (storage !== "memory" && storage !== "sqlite" && storage !== "etcd") {
    throw new UsageError(`Cannot use storage "${storage}": choose memory, sqlite or etcd`);
  }
  const endpoints = (values["etcd-endpoints"] ?? "")
    .split(",")
    .map((url) => url.trim())
    .filter((url) => url !== "");
  if (storage === "etcd" && endpoints.length === 0) {
    throw new UsageError(
      "Cannot use --storage etcd without --etcd-endpoints: give the members' client URLs, such as http://127.0.0.1:2379",
    );
  }
  if (storage !== "etcd" && (endpoints.length > 0 || values["etcd-prefix"] !== undefined)) {
    throw new UsageError("Cannot use --etcd-endpoints or --etcd-prefix without --storage etcd");
  }
  const portText = values.port ?? "6443";
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`Cannot listen on port "${portText}": give a number from 0 to 65535`);
  }
  const gangAdmission = values["gang-admission"] ?? "lenient";
  if (gangAdmission !== "lenient" && gangAdmission !== "strict") {
    throw new UsageError(
      `Cannot use --gang-admission "${gangAdmission}": choose lenient or strict`,
    );
  }
  const authorizationMode = values["authorization-mode"] ?? (tls ? "RBAC" : "AlwaysAllow");
  if (authorizationMode !== "RBAC" && authorizationMode !== "AlwaysAllow") {
    throw new UsageError(
      `Cannot use --authorization-mode "${authorizationMode}": choose RBAC or AlwaysAllow`,
    );
  }
  const tokenAuthFile = values["token-auth-file"];
  const prefix = values["etcd-prefix"];
  return {
    authorizationMode,
    ...(tokenAuthFile === undefined ? {} : { tokenAuthFile }),
    dataDir: values["data-dir"] ?? "./.gantry",
    port,
    address,
    storage,
    ...(storage === "etcd"
      ? { etcd: { endpoints, ...(prefix === undefined ? {} : { prefix }) } }
      : {}),
    ...(tls ? { tls: { sans: tlsSans } } : {}),
    maxRequestsInFlight: inFlightLimit("max-requests-inflight", values, "400"),
    maxMutatingRequestsInFlight: inFlightLimit("max-mutating-requests-inflight", values, "200"),
    gangAdmission,
  };
}

/** A `--max-*-inflight` value: a whole number, 0 for no limit. */
function inFlightLimit(
  flag: "max-requests-inflight" | "max-mutating-requests-inflight",
  values: Values,
  fallback: string,
): number {
  const text = values[flag] ?? fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    throw new UsageError(`Cannot use --${flag} "${text}": give a whole number, 0 for no limit`);
  }
  return value;
}
