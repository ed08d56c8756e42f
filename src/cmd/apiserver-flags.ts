/** The API server's flags, shared by `gantry up` and `gantry apiserver`, and their checks. */
import { loadPodSecurityConfiguration } from "./admission-config.ts";
import type { AllInOneOptions } from "./all-in-one.ts";
import { plainHttpRefusal } from "./all-in-one.ts";
import { etcdFlags, etcdFlagsUsage, etcdSettings } from "./etcd-flags.ts";
import { overloadFlags, overloadFlagsUsage, overloadSettings } from "./overload-flags.ts";
import {
  serviceAccountFlags,
  serviceAccountFlagsUsage,
  serviceAccountSettings,
} from "./service-accounts.ts";
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
  ...etcdFlags,
  "max-requests-inflight": { type: "string", default: "400" },
  "max-mutating-requests-inflight": { type: "string", default: "200" },
  ...overloadFlags,
  "gang-admission": { type: "string", default: "lenient" },
  "authorization-mode": { type: "string" },
  "token-auth-file": { type: "string" },
  "admission-control-config-file": { type: "string" },
  ...serviceAccountFlags,
  "disable-admission-plugins": { type: "string" },
  "client-ca-file": { type: "string" },
  v: { type: "string", default: "0" },
  help: { type: "boolean", default: false },
} as const;

export const apiServerFlagsUsage = `  --data-dir DIR       Where state and the kubeconfig live (default ./.gantry)
  --port P             Port to listen on (default 6443; 0 picks a free one)
  --address A          Address to bind (default 127.0.0.1). Plain http is allowed only on
                       a loopback address; any other address needs --tls
  --tls                Serve https: generate (or reuse) in DATA_DIR/pki a CA, a serving
                       certificate, an admin bearer token and client certificates for the
                       admin (DATA_DIR/kubeconfig) and the components (DATA_DIR/scheduler,
                       controller-manager and queueing.kubeconfig); require credentials
  --tls-san NAME       Another DNS name or IP address for the serving certificate
                       (repeatable, or comma-separated); needs --tls
  --storage KIND       memory | sqlite | etcd (default sqlite)
${etcdFlagsUsage}  --max-requests-inflight N
                       Read-only requests served at once (default 400; 0 = no limit);
                       beyond it: 429 with Retry-After: 1. Watches are not counted. With
                       priority and fairness, the two limits' sum is the seats its levels
                       share
  --max-mutating-requests-inflight N
                       Mutating requests served at once (default 200; 0 = no limit)
${overloadFlagsUsage}  --gang-admission MODE
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
  --client-ca-file FILE
                       A PEM bundle of CAs whose client certificates (CN = user, each O a
                       group) identify users, trusted beside the cluster CA; needs --tls
${serviceAccountFlagsUsage}  --disable-admission-plugins NAME[,NAME...]
                       Admission plugins not to run: ServiceAccount (on by default: pods
                       run as their namespace's "default" ServiceAccount, which must exist,
                       and mount a projected token volume), LimitRanger (LimitRange defaults
                       and bounds), ResourceQuota (quota checks and charging)
  --admission-control-config-file FILE
                       kube-apiserver's AdmissionConfiguration (YAML or JSON); gantry reads
                       the PodSecurity plugin's PodSecurityConfiguration (defaults and
                       exemptions), inline or from its path. Without it: privileged defaults
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
  | "podSecurity"
  | "serviceAccounts"
  | "clientCaFile"
  | "enablePriorityAndFairness"
  | "requestTimeoutMs"
  | "maxWatchesPerUser"
  | "audit"
  | "disabledAdmissionPlugins"
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
  const etcd = etcdSettings(storage, values);
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
  const clientCaFile = values["client-ca-file"];
  if (clientCaFile !== undefined && !tls) {
    throw new UsageError(
      "Cannot use --client-ca-file without --tls: client certificates are presented over https",
    );
  }
  const disabled = disabledAdmissionPlugins(values["disable-admission-plugins"]);
  return {
    serviceAccounts: serviceAccountSettings(values, !disabled.includes("ServiceAccount")),
    ...(disabled.length === 0 ? {} : { disabledAdmissionPlugins: disabled }),
    ...(clientCaFile === undefined ? {} : { clientCaFile }),
    authorizationMode,
    ...(tokenAuthFile === undefined ? {} : { tokenAuthFile }),
    ...podSecuritySetting(values["admission-control-config-file"]),
    dataDir: values["data-dir"] ?? "./.gantry",
    port,
    address,
    storage,
    ...(etcd === undefined ? {} : { etcd }),
    ...(tls ? { tls: { sans: tlsSans } } : {}),
    ...overloadSettings(values),
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

/** The admission plugins gantry can turn off. */
const optionalAdmissionPlugins = ["LimitRanger", "ServiceAccount", "ResourceQuota"];

/** `--disable-admission-plugins`: comma-separated names, each one gantry can disable. */
function disabledAdmissionPlugins(text: string | undefined): string[] {
  const names = (text ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  for (const name of names) {
    if (!optionalAdmissionPlugins.includes(name)) {
      throw new UsageError(
        `Cannot disable admission plugin "${name}": gantry can disable ${optionalAdmissionPlugins.join(", ")}`,
      );
    }
  }
  return names;
}

/** PodSecurity's configuration from `--admission-control-config-file`, read and checked now. */
function podSecuritySetting(path: string | undefined): Pick<ApiServerSettings, "podSecurity"> {
  const podSecurity = path === undefined ? undefined : loadPodSecurityConfiguration(path);
  return podSecurity === undefined ? {} : { podSecurity };
}
