/**
 * What one emulated kubelet knows about its node: identity, labels, resources, settings and
 * machine. Built from a config pool, or from a Node created through the API (adoption).
 */
import { createHash } from "node:crypto";
import type { Node, ResourceList, Taint } from "../../api/index.ts";
import type { DeepReadonly, JsonObject } from "../../util/index.ts";
import {
  defaultCapacity,
  defaultKubeletSettings,
  type KubeletSettings,
  type NodePool,
} from "../config/cluster-config.ts";
import { tryParseQuantity } from "../internal/resources.ts";
import {
  flatMachineTopology,
  type MachineIdentity,
  type MachineTopology,
} from "../machine/machine-info.ts";
import type { TopologyInterpreter } from "../machine/topology.ts";

/** The version every emulated kubelet reports. */
export const kubeletVersion = "v1.35.0";

/** Everything needed to register and report one node. Immutable. */
export interface EmulatedNode {
  readonly name: string;
  /** The config pool; `undefined` for an adopted node. */
  readonly pool: string | undefined;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** Taints to register with (the kubelet's `registerWithTaints`). */
  readonly taints: readonly Readonly<Taint>[];
  readonly instanceType: string;
  readonly capacity: Readonly<ResourceList>;
  readonly allocatable: Readonly<ResourceList>;
  readonly kubelet: KubeletSettings;
  readonly topology: JsonObject | undefined;
  readonly machine: MachineTopology;
  readonly identity: MachineIdentity;
}

function hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function uuidOf(text: string): string {
  const h = hex(text);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Stable machine ids for a node name, so a restarted fleet reports the same machine. */
export function identityOf(name: string, instanceType: string): MachineIdentity {
  return {
    machineId: hex(`machine-id:${name}`).slice(0, 32),
    systemUuid: uuidOf(`system-uuid:${name}`),
    bootId: uuidOf(`boot-id:${name}`),
    instanceType,
  };
}

/** Bytes of memory in a resource list (0 when absent). */
export function memoryBytesOf(list: Readonly<ResourceList>): number {
  const q = tryParseQuantity(list["memory"]);
  return q === undefined ? 0 : Number(q.unscaled) * 10 ** q.scale;
}

function cpuCountOf(list: Readonly<ResourceList>): number {
  const q = tryParseQuantity(list["cpu"]);
  return q === undefined ? 1 : Number(q.unscaled) * 10 ** q.scale;
}

/** The machine a node reports: its topology when the interpreter reads it, else a flat one. */
export function machineOf(
  capacity: Readonly<ResourceList>,
  topology: JsonObject | undefined,
  interpreter: TopologyInterpreter,
): MachineTopology {
  const memory = memoryBytesOf(capacity);
  const read = topology === undefined ? undefined : interpreter.machine(topology, memory);
  return read ?? flatMachineTopology(cpuCountOf(capacity), memory);
}

/** The `index`-th node of a pool. */
export function nodeFromPool(
  pool: NodePool,
  index: number,
  interpreter: TopologyInterpreter,
): EmulatedNode {
  return namedPoolNode(pool, `${pool.namePrefix}${index}`, interpreter);
}

/** A node of a pool's shape with any name (an API-created Node that names the pool). */
export function namedPoolNode(
  pool: NodePool,
  name: string,
  interpreter: TopologyInterpreter,
): EmulatedNode {
  return {
    name,
    pool: pool.name,
    labels: pool.labels,
    annotations: pool.annotations,
    taints: pool.taints,
    instanceType: pool.instanceType,
    capacity: pool.capacity,
    allocatable: pool.allocatable,
    kubelet: pool.kubelet,
    topology: pool.topology,
    machine: machineOf(pool.capacity, pool.topology, interpreter),
    identity: identityOf(name, pool.instanceType),
  };
}

/**
 * A node created through the API: its own `status.capacity`/`allocatable` when it has them
 * (kubectl can create a Node with status), otherwise the default node shape.
 */
export function nodeFromObject(
  node: DeepReadonly<Node>,
  interpreter: TopologyInterpreter,
): EmulatedNode {
  const name = node.metadata.name ?? "";
  const given = node.status?.capacity;
  const capacity: ResourceList =
    given !== undefined && Object.keys(given).length > 0
      ? { ...given }
      : { ...defaultCapacity, pods: String(defaultKubeletSettings.maxPods) };
  const allocatable: ResourceList = { ...capacity, ...(node.status?.allocatable ?? {}) };
  const instanceType = node.metadata.labels?.["node.kubernetes.io/instance-type"] ?? "";
  return {
    name,
    pool: undefined,
    labels: {},
    annotations: {},
    taints: [],
    instanceType,
    capacity,
    allocatable,
    kubelet: defaultKubeletSettings,
    topology: undefined,
    machine: machineOf(capacity, undefined, interpreter),
    identity: identityOf(name, instanceType),
  };
}
