/**
 * Where a separately run component serves its health and metrics endpoints: upstream's
 * `--secure-port` (kube-scheduler 10259, kube-controller-manager 10257; 0 turns the listener
 * off) and `--bind-address` (upstream 0.0.0.0; gantry 127.0.0.1, loopback first, since it serves
 * plain http without authentication).
 */
import { isIP } from "node:net";
import { UsageError } from "./usage-error.ts";

/** The flags for node's `parseArgs`; the port's default depends on the component. */
export const servingFlags = {
  "secure-port": { type: "string" },
  "bind-address": { type: "string", default: "127.0.0.1" },
} as const;

type Values = { readonly [K in keyof typeof servingFlags]?: string | undefined };

/** Where to listen; undefined when `--secure-port 0` turned the listener off. */
export interface ServingSettings {
  readonly address: string;
  readonly port: number;
}

/** The help text of the flags, given the component's default port. */
export function servingUsage(defaultPort: number): string {
  return `Health and metrics (plain http, no authentication; /healthz, /livez, /readyz, /metrics):
  --secure-port P      The port to serve them on (default ${defaultPort}; 0 turns them off)
  --bind-address IP    The address to bind (default 127.0.0.1; 0.0.0.0 for every interface)
`;
}

/** Checked settings from the flag values. */
export function servingSettings(values: Values, defaultPort: number): ServingSettings | undefined {
  const portText = values["secure-port"] ?? String(defaultPort);
  const port = Number(portText);
  if (portText.trim() === "" || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(
      `Cannot use --secure-port "${portText}": give a port from 0 to 65535 (0 turns the health and metrics endpoints off)`,
    );
  }
  const address = (values["bind-address"] ?? "127.0.0.1").replace(/^\[(.*)\]$/, "$1");
  if (isIP(address) === 0) {
    throw new UsageError(
      `Cannot use --bind-address "${values["bind-address"]}": give an IP address such as 127.0.0.1 or 0.0.0.0`,
    );
  }
  return port === 0 ? undefined : { address, port };
}
