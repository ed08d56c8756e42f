/**
 * Services' cluster IPs and node ports, as kube-apiserver's service registry allocates them:
 * a ClusterIP, NodePort or LoadBalancer Service gets a free address of the service CIDR
 * (`--service-cluster-ip-range`, 10.96.0.0/12 here, the first host address kept for the
 * `kubernetes` Service) unless it asks for one or is headless (`None`), and each port of a
 * NodePort or LoadBalancer Service a free port of 30000-32767 (`--service-node-port-range`).
 * A requested address or port outside its range, or already taken, is upstream's 422.
 *
 * What is taken is read from the watch cache's Services, plus what this server handed out in the
 * last minute and has not seen stored yet (a create in flight, or one that failed after
 * allocating), so two creates in quick succession never get the same address.
 */
import {
  type FieldError,
  FieldPath,
  invalidObject,
  type KubeObject,
  type Service,
  type ServicePort,
} from "../../api/index.ts";
import type { Clock, Random } from "../../util/index.ts";
import type { Strategy } from "./generic/strategy.ts";

export interface ServiceAllocationDeps {
  /** Every Service the watch cache holds. */
  readonly services: () => readonly KubeObject[];
  readonly random: Random;
  readonly clock: Clock;
}

/** The service CIDR: 10.96.0.0/12. */
export const serviceCidr = { base: ipToNumber("10.96.0.0"), prefix: 12, text: "10.96.0.0/12" };
/** The node port range. */
export const nodePortRange = { first: 30000, last: 32767 };
/** How long an address or port handed out but not yet seen stored stays taken. */
const reservationMs = 60_000;

const size = 2 ** (32 - serviceCidr.prefix);

function ipToNumber(ip: string): number {
  const parts = ip.split(".").map(Number);
  return (
    (((parts[0] ?? 0) << 24) |
      ((parts[1] ?? 0) << 16) |
      ((parts[2] ?? 0) << 8) |
      (parts[3] ?? 0)) >>>
    0
  );
}

function numberToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

function isIpv4(text: string): boolean {
  return /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(text);
}

/** Whether the Service type gets a cluster IP (every type but ExternalName). */
function wantsClusterIp(spec: NonNullable<Service["spec"]>): boolean {
  return spec.type !== "ExternalName";
}

/** Whether its ports get node ports. */
function wantsNodePorts(spec: NonNullable<Service["spec"]>): boolean {
  return (
    spec.type === "NodePort" ||
    (spec.type === "LoadBalancer" && spec.allocateLoadBalancerNodePorts !== false)
  );
}

/** The Services strategy: cluster IPs and node ports on create, kept on update. */
export function newServiceAllocation(deps: ServiceAllocationDeps): Strategy {
  const reservedIps = new Map<string, number>();
  const reservedPorts = new Map<number, number>();

  const taken = (except?: KubeObject) => {
    const now = deps.clock.now().getTime();
    for (const [key, until] of reservedIps) if (until < now) reservedIps.delete(key);
    for (const [key, until] of reservedPorts) if (until < now) reservedPorts.delete(key);
    const ips = new Set(reservedIps.keys());
    const ports = new Set(reservedPorts.keys());
    for (const object of deps.services()) {
      if (except !== undefined && object.metadata.uid === except.metadata.uid) continue;
      const spec = (object as Service).spec ?? {};
      for (const ip of spec.clusterIPs ?? [spec.clusterIP ?? ""]) ips.add(ip);
      for (const port of spec.ports ?? [])
        if (port.nodePort !== undefined) ports.add(port.nodePort);
    }
    return { ips, ports, now };
  };

  const allocate = (svc: Service, old: Service | undefined): void => {
    const spec = svc.spec ?? {};
    svc.spec = spec;
    const errors: FieldError[] = [];
    const inUse = taken(old);
    if (wantsClusterIp(spec)) {
      const oldSpec = old?.spec;
      const stored =
        oldSpec !== undefined && wantsClusterIp(oldSpec) ? oldSpec.clusterIP : undefined;
      // An update that leaves the cluster IP out keeps the stored one.
      let ip = [spec.clusterIP, spec.clusterIPs?.[0], stored].find((v) => (v ?? "") !== "") ?? "";
      if (ip === "") {
        ip = freeIp(inUse.ips) ?? "";
        if (ip !== "") reservedIps.set(ip, inUse.now + reservationMs);
      } else if (ip !== "None" && ip !== stored && isIpv4(ip)) {
        const error = ipProblem(ip, inUse.ips);
        if (error !== undefined) errors.push(error);
        else reservedIps.set(ip, inUse.now + reservationMs);
      }
      if (ip !== "") {
        spec.clusterIP = ip;
        spec.clusterIPs = [ip];
      }
      spec.ipFamilies ??= ["IPv4"];
      spec.ipFamilyPolicy ??= "SingleStack";
    }
    if (wantsNodePorts(spec)) {
      const oldPorts = wantsNodePorts(old?.spec ?? {}) ? (old?.spec?.ports ?? []) : [];
      (spec.ports ?? []).forEach((port, i) => {
        const previous = oldPorts.find((p) => p.port === port.port && p.protocol === port.protocol);
        if ((port.nodePort ?? 0) === 0 && previous?.nodePort !== undefined) {
          port.nodePort = previous.nodePort;
          return;
        }
        if (
          port.nodePort !== undefined &&
          port.nodePort !== 0 &&
          port.nodePort === previous?.nodePort
        ) {
          return;
        }
        const error = assignNodePort(port, i, inUse.ports);
        if (error !== undefined) errors.push(error);
        else if (port.nodePort !== undefined) {
          inUse.ports.add(port.nodePort);
          reservedPorts.set(port.nodePort, inUse.now + reservationMs);
        }
      });
    }
    if (errors.length > 0) {
      throw invalidObject({ group: "", kind: "Service" }, svc.metadata.name ?? "", errors);
    }
  };

  const freeIp = (ips: ReadonlySet<string>): string | undefined => {
    // The network address, the first host (the kubernetes Service's) and the broadcast address
    // are never handed out.
    const first = 2;
    const count = size - 3;
    const start = Math.floor(deps.random.float() * count);
    for (let i = 0; i < count; i++) {
      const ip = numberToIp(serviceCidr.base + first + ((start + i) % count));
      if (!ips.has(ip)) return ip;
    }
    return undefined;
  };

  const assignNodePort = (
    port: ServicePort,
    index: number,
    ports: ReadonlySet<number>,
  ): FieldError | undefined => {
    const path = FieldPath.of("spec", "ports").index(index).child("nodePort").toString();
    if ((port.nodePort ?? 0) !== 0) {
      const wanted = port.nodePort ?? 0;
      if (wanted < nodePortRange.first || wanted > nodePortRange.last) {
        return {
          type: "FieldValueInvalid",
          field: path,
          value: wanted,
          detail: `provided port is not in the valid range. The range of valid ports is ${nodePortRange.first}-${nodePortRange.last}`,
        };
      }
      if (ports.has(wanted)) {
        return {
          type: "FieldValueInvalid",
          field: path,
          value: wanted,
          detail: "provided port is already allocated",
        };
      }
      return undefined;
    }
    const count = nodePortRange.last - nodePortRange.first + 1;
    const start = Math.floor(deps.random.float() * count);
    for (let i = 0; i < count; i++) {
      const candidate = nodePortRange.first + ((start + i) % count);
      if (!ports.has(candidate)) {
        port.nodePort = candidate;
        return undefined;
      }
    }
    return undefined;
  };

  return {
    prepareForCreate(obj) {
      allocate(obj as Service, undefined);
    },
    prepareForUpdate(obj, old) {
      allocate(obj as Service, old as Service);
    },
  };
}

/** Upstream's refusal of a requested cluster IP, as a field error at `spec.clusterIPs`. */
function ipProblem(ip: string, taken: ReadonlySet<string>): FieldError | undefined {
  const n = ipToNumber(ip);
  const inRange =
    n >= serviceCidr.base &&
    n < serviceCidr.base + size &&
    n !== serviceCidr.base &&
    n !== serviceCidr.base + size - 1;
  const detail = !inRange
    ? `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${serviceCidr.text}`
    : taken.has(ip)
      ? "provided IP is already allocated"
      : undefined;
  if (detail === undefined) return undefined;
  return {
    type: "FieldValueInvalid",
    field: "spec.clusterIPs",
    detail: `[]string{${JSON.stringify(ip)}}: failed to allocate IP ${ip}: ${detail}`,
  };
}
