/**
 * Baseline checks that keep a pod off the host: host namespaces, hostPath volumes, host ports,
 * probe and lifecycle hosts, Windows HostProcess, and unsafe sysctls. IDs, reasons and details
 * as upstream's `policy/check_*.go`.
 */
import type { Volume } from "../../../../api/index.ts";
import {
  allowed,
  type Check,
  type CheckPodFn,
  containersText,
  forbidden,
  isSet,
  joinQuote,
  list,
  pluralize,
  sortedSet,
  visitContainers,
} from "./check.ts";

/** `hostNamespaces` (1.0): hostNetwork, hostPID and hostIPC must be unset or false. */
const hostNamespaces: CheckPodFn = (_meta, spec) => {
  const set: string[] = [];
  if (spec.hostNetwork === true) set.push("hostNetwork=true");
  if (spec.hostPID === true) set.push("hostPID=true");
  if (spec.hostIPC === true) set.push("hostIPC=true");
  return set.length === 0 ? allowed : forbidden("host namespaces", set.join(", "));
};

/** `hostPathVolumes` (1.0): no hostPath volumes. */
const hostPathVolumes: CheckPodFn = (_meta, spec) => {
  const names = list(spec.volumes)
    .filter((v) => isSet(v.hostPath))
    .map((v) => v.name);
  if (names.length === 0) return allowed;
  return forbidden(
    "hostPath volumes",
    `${pluralize("volume", "volumes", names.length)} ${joinQuote(names)}`,
  );
};

/** `hostPorts` (1.0): no container port may set a hostPort. */
const hostPorts: CheckPodFn = (_meta, spec) => {
  const containers: string[] = [];
  const ports: string[] = [];
  visitContainers(spec, (c) => {
    const bad = list(c.ports).filter((p) => (p.hostPort ?? 0) !== 0);
    if (bad.length === 0) return;
    containers.push(c.name);
    for (const p of bad) ports.push(String(p.hostPort));
  });
  if (containers.length === 0) return allowed;
  const distinct = sortedSet(ports);
  return forbidden(
    "hostPort",
    `${containersText(containers)} ${pluralize("uses", "use", containers.length)} ${pluralize("hostPort", "hostPorts", distinct.length)} ${distinct.join(", ")}`,
  );
};

/** The part of a probe or lifecycle handler that can name a host. */
interface HostHandler {
  readonly httpGet?: { readonly host?: string };
  readonly tcpSocket?: { readonly host?: string };
}

function probeHosts(probe: HostHandler | undefined): string[] {
  const hosts: string[] = [];
  const httpHost = probe?.httpGet?.host ?? "";
  const tcpHost = probe?.tcpSocket?.host ?? "";
  if (httpHost !== "") hosts.push(httpHost);
  if (tcpHost !== "") hosts.push(tcpHost);
  return hosts;
}

/**
 * `hostProbesAndHostLifecycle` (1.34): probes and lifecycle handlers may not name a host, which
 * would let the kubelet reach other endpoints for the pod.
 */
const hostProbesAndHostLifecycle: CheckPodFn = (_meta, spec) => {
  const containers = new Set<string>();
  const hosts = new Set<string>();
  visitContainers(spec, (c) => {
    const handlers = [
      c.livenessProbe,
      c.readinessProbe,
      c.startupProbe,
      c.lifecycle?.postStart,
      c.lifecycle?.preStop,
    ];
    for (const handler of handlers) {
      const bad = probeHosts(handler);
      if (bad.length === 0) continue;
      containers.add(c.name);
      for (const h of bad) hosts.add(h);
    }
  });
  if (containers.size === 0) return allowed;
  return forbidden(
    "probe or lifecycle host",
    `${containersText(sortedSet(containers))} ${pluralize("uses", "use", containers.size)} ${pluralize("probe or lifecycle host", "probe or lifecycle hosts", hosts.size)} ${joinQuote(sortedSet(hosts))}`,
  );
};

/** `windowsHostProcess` (1.0): no Windows HostProcess pod or container. */
const windowsHostProcess: CheckPodFn = (_meta, spec) => {
  const setters: string[] = [];
  if (spec.securityContext?.windowsOptions?.hostProcess === true) setters.push("pod");
  const containers: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.windowsOptions?.hostProcess === true) containers.push(c.name);
  });
  if (containers.length > 0) setters.push(containersText(containers));
  if (setters.length === 0) return allowed;
  return forbidden(
    "hostProcess",
    `${setters.join(" and ")} must not set securityContext.windowsOptions.hostProcess=true`,
  );
};

const sysctls1Dot0 = [
  "kernel.shm_rmid_forced",
  "net.ipv4.ip_local_port_range",
  "net.ipv4.tcp_syncookies",
  "net.ipv4.ping_group_range",
  "net.ipv4.ip_unprivileged_port_start",
];
const sysctls1Dot27 = [...sysctls1Dot0, "net.ipv4.ip_local_reserved_ports"];
const sysctls1Dot29 = [
  ...sysctls1Dot27,
  "net.ipv4.tcp_keepalive_time",
  "net.ipv4.tcp_fin_timeout",
  "net.ipv4.tcp_keepalive_intvl",
  "net.ipv4.tcp_keepalive_probes",
];
const sysctls1Dot32 = [...sysctls1Dot29, "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem"];

/** `sysctls`: only the namespaced, isolated sysctls of the version's safe set. */
function sysctlsCheck(safe: readonly string[]): CheckPodFn {
  const allowedNames = new Set(safe);
  return (_meta, spec) => {
    const bad = list(spec.securityContext?.sysctls)
      .map((s) => s.name)
      .filter((name) => !allowedNames.has(name));
    return bad.length === 0 ? allowed : forbidden("forbidden sysctls", bad.join(", "));
  };
}

/** The volume's source field names, for checks that sort volumes by type. */
export function volumeSources(volume: Volume): string[] {
  return Object.keys(volume).filter((k) => k !== "name" && isSet(volume[k]));
}

export const hostChecks: readonly Check[] = [
  {
    id: "hostNamespaces",
    level: "baseline",
    versions: [{ minimumVersion: 0, checkPod: hostNamespaces }],
  },
  {
    id: "hostPathVolumes",
    level: "baseline",
    versions: [{ minimumVersion: 0, checkPod: hostPathVolumes }],
  },
  { id: "hostPorts", level: "baseline", versions: [{ minimumVersion: 0, checkPod: hostPorts }] },
  {
    id: "hostProbesAndHostLifecycle",
    level: "baseline",
    versions: [{ minimumVersion: 34, checkPod: hostProbesAndHostLifecycle }],
  },
  {
    id: "windowsHostProcess",
    level: "baseline",
    versions: [{ minimumVersion: 0, checkPod: windowsHostProcess }],
  },
  {
    id: "sysctls",
    level: "baseline",
    versions: [
      { minimumVersion: 0, checkPod: sysctlsCheck(sysctls1Dot0) },
      { minimumVersion: 27, checkPod: sysctlsCheck(sysctls1Dot27) },
      { minimumVersion: 29, checkPod: sysctlsCheck(sysctls1Dot29) },
      { minimumVersion: 32, checkPod: sysctlsCheck(sysctls1Dot32) },
    ],
  },
];
