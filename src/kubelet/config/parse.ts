/**
 * `parseClusterConfig(text)`: YAML → a validated, defaulted `ClusterConfig`. Every problem is
 * reported at once, each naming its field path and what to write instead.
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { parseDocument } from "yaml";
import {
  compareQuantities,
  FieldPath,
  fieldErrorString,
  isDns1123Label,
  isDns1123Subdomain,
  isValidLabelValue,
  parseQuantity,
  quantityValue,
  type ResourceList,
  type Taint,
  validateAnnotations,
  validateLabels,
  validateNodeTaints,
} from "../../api/index.ts";
import { errorMessage, isPlainObject, type JsonObject } from "../../util/index.ts";
import { findPreset, presetNames } from "../cpumanager/topology/presets.ts";
import { cpuManagerProblem } from "../cpumanager/validate.ts";
import { parseIpv4Cidr, subnetCount } from "../internal/cidr.ts";
import { flatMachineTopology } from "../machine/machine-info.ts";
import { cadvisorTopologyInterpreter, type TopologyInterpreter } from "../machine/topology.ts";
import { computeAllocatable, effectiveReservations, validateReservation } from "./allocatable.ts";
import {
  type ClusterConfig,
  clusterConfigApiVersion,
  clusterConfigKind,
  defaultCapacity,
  defaultNetworking,
  type NetworkingConfig,
  type NodePool,
  poolNodeNames,
} from "./cluster-config.ts";
import { heartbeatProblem, readControllerManagerSettings } from "./controller-manager-settings.ts";
import { readKubeletSettings } from "./kubelet-settings.ts";
import {
  checkKeys,
  childPath,
  Problems,
  readInteger,
  readList,
  readObject,
  readString,
  readStringMap,
} from "./reader.ts";
import { readResourceList } from "./resource-list.ts";

/** A cluster config that cannot be used; `problems` lists every mistake found. */
export class ClusterConfigError extends Error {
  readonly problems: readonly string[];

  constructor(source: string, problems: readonly string[]) {
    super(
      `Cannot use the cluster config ${source}:\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
    this.name = "ClusterConfigError";
    this.problems = problems;
  }
}

/** An extra check of each pool, added by components with their own settings (CPU manager). */
export type PoolValidator = (pool: NodePool, path: string) => readonly string[];

/** Options of `parseClusterConfig`. */
export interface ParseClusterConfigOptions {
  /** Names the file in error messages. @default "(inline)" */
  readonly source?: string;
  /** Reads `topology:` objects. @default cadvisorTopologyInterpreter */
  readonly topology?: TopologyInterpreter;
  /** Run on every pool that passed the built-in checks, in order. */
  readonly validators?: readonly PoolValidator[];
  /**
   * Reads the file of `topology: {file: PATH}`. @default reads PATH from disk, relative to the
   * directory of `source` (the working directory for an inline config)
   */
  readonly readFile?: (path: string) => string;
}

/**
 * A pool's `topology`: a preset name becomes `{preset: NAME}`, `{file: PATH}` the file's
 * (YAML or JSON) contents; any other mapping is taken as written.
 */
function readTopologyField(
  value: unknown,
  path: string,
  readFile: (path: string) => string,
  problems: Problems,
): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") {
    if (findPreset(value) !== undefined) return { preset: value };
    problems.add(
      path,
      `unknown topology preset ${JSON.stringify(value)}; use one of ${presetNames().join(", ")}`,
    );
    return undefined;
  }
  const object = readObject(value, path, problems);
  if (object === undefined) return undefined;
  const file = object["file"];
  if (file === undefined) return structuredClone(object);
  if (typeof file !== "string" || Object.keys(object).length !== 1) {
    problems.add(path, "a file topology is {file: PATH} alone, PATH a string");
    return undefined;
  }
  let text: string;
  try {
    text = readFile(file);
  } catch (error: unknown) {
    problems.add(
      childPath(path, "file"),
      `cannot read ${JSON.stringify(file)}: ${errorMessage(error)}`,
    );
    return undefined;
  }
  const document = parseDocument(text, { uniqueKeys: true });
  const parsed: unknown = document.errors.length > 0 ? undefined : document.toJS();
  if (typeof parsed === "string") return { preset: parsed };
  if (!isPlainObject(parsed)) {
    problems.add(
      childPath(path, "file"),
      `${JSON.stringify(file)} is not a JSON or YAML mapping; write a topology in one of its forms`,
    );
    return undefined;
  }
  return parsed as JsonObject;
}

function diskReader(source: string): (path: string) => string {
  const base = source === "(inline)" ? process.cwd() : dirname(resolve(source));
  return (path) => readFileSync(isAbsolute(path) ? path : resolve(base, path), "utf8");
}

const topFields = [
  "apiVersion",
  "kind",
  "networking",
  "nodePools",
  "controllerManager",
  "queueing",
] as const;
const networkingFields = ["podSubnet", "nodeCIDRMaskSize"] as const;
const poolFields = [
  "name",
  "count",
  "namePrefix",
  "instanceType",
  "labels",
  "annotations",
  "taints",
  "capacity",
  "allocatable",
  "topology",
  "kubelet",
] as const;
const taintFields = ["key", "value", "effect"] as const;

function fieldErrors(
  errors: readonly Parameters<typeof fieldErrorString>[0][],
  problems: Problems,
) {
  for (const error of errors) problems.add("", fieldErrorString(error));
}

function readNetworking(value: unknown, problems: Problems): NetworkingConfig {
  const object = readObject(value, "networking", problems);
  if (object === undefined) return defaultNetworking;
  checkKeys(object, networkingFields, "networking", problems);
  const subnet =
    readString(object["podSubnet"], "networking.podSubnet", problems) ??
    defaultNetworking.podSubnet;
  if (parseIpv4Cidr(subnet) === undefined) {
    problems.add(
      "networking.podSubnet",
      `invalid IPv4 network ${JSON.stringify(subnet)}; write it as address/prefix with no host bits set, such as "10.128.0.0/9"`,
    );
  }
  const mask =
    readInteger(object["nodeCIDRMaskSize"], "networking.nodeCIDRMaskSize", problems, 8, 30) ??
    defaultNetworking.nodeCIDRMaskSize;
  return { podSubnet: subnet, nodeCIDRMaskSize: mask };
}

function readTaints(value: unknown, path: string, problems: Problems): Taint[] {
  const list = readList(value, path, problems) ?? [];
  const taints: Taint[] = [];
  list.forEach((item, i) => {
    const p = childPath(path, i);
    const object = readObject(item, p, problems);
    if (object === undefined) return;
    checkKeys(object, taintFields, p, problems);
    const key = readString(object["key"], childPath(p, "key"), problems) ?? "";
    const taintValue = readString(object["value"], childPath(p, "value"), problems);
    const effect = readString(object["effect"], childPath(p, "effect"), problems) ?? "";
    taints.push({
      key,
      effect: effect as Taint["effect"],
      ...(taintValue === undefined ? {} : { value: taintValue }),
    });
  });
  fieldErrors(validateNodeTaints(taints, FieldPath.of(path)), problems);
  return taints;
}

function memoryBytes(capacity: Readonly<ResourceList>): number {
  const memory = capacity["memory"];
  return memory === undefined ? 0 : quantityValue(parseQuantity(memory));
}

/** Capacity: defaults, then the pool's own, with `cpu` from the topology and `pods` from maxPods. */
function resolveCapacity(
  object: JsonObject,
  path: string,
  maxPods: { readonly value: number; readonly explicit: boolean },
  topology: JsonObject | undefined,
  interpreter: TopologyInterpreter,
  problems: Problems,
): ResourceList {
  const own = readResourceList(object["capacity"], childPath(path, "capacity"), problems) ?? {};
  const capacity: ResourceList = { ...defaultCapacity, ...own };
  if (own["pods"] !== undefined) {
    if (maxPods.explicit && Number(own["pods"]) !== maxPods.value) {
      problems.add(
        `${path}.capacity.pods`,
        `says ${own["pods"]} but kubelet.maxPods says ${maxPods.value}; set only one of them`,
      );
    }
  } else {
    capacity["pods"] = String(maxPods.value);
  }
  if (topology !== undefined) {
    const machine = interpreter.machine(topology, memoryBytes(capacity));
    if (machine !== undefined) {
      if (own["cpu"] === undefined) capacity["cpu"] = String(machine.numCores);
      else if (quantityValue(parseQuantity(own["cpu"])) !== machine.numCores) {
        problems.add(
          `${path}.capacity.cpu`,
          `says ${own["cpu"]} but the topology has ${machine.numCores} CPUs; drop capacity.cpu or make them agree`,
        );
      }
    }
  }
  return capacity;
}

function readPool(
  value: unknown,
  path: string,
  interpreter: TopologyInterpreter,
  readFile: (path: string) => string,
  problems: Problems,
): NodePool | undefined {
  const object = readObject(value, path, problems);
  if (object === undefined) {
    if (value === undefined || value === null) problems.add(path, "must be a mapping with a name");
    return undefined;
  }
  checkKeys(object, poolFields, path, problems);
  const at = (key: string): string => childPath(path, key);
  const before = problems.list.length;

  const name = readString(object["name"], at("name"), problems);
  if (name === undefined) {
    if (object["name"] === undefined)
      problems.add(at("name"), 'required: give the pool a name such as "workers"');
  } else {
    for (const msg of isDns1123Label(name))
      problems.add(at("name"), `invalid name ${JSON.stringify(name)}: ${msg}`);
  }
  const count = readInteger(object["count"], at("count"), problems, 0, 100_000) ?? 1;
  const namePrefix =
    readString(object["namePrefix"], at("namePrefix"), problems) ?? `${name ?? "node"}-`;
  const instanceType = readString(object["instanceType"], at("instanceType"), problems) ?? "";
  for (const msg of isValidLabelValue(instanceType)) {
    problems.add(at("instanceType"), `invalid label value ${JSON.stringify(instanceType)}: ${msg}`);
  }
  const labels = readStringMap(object["labels"], at("labels"), problems) ?? {};
  fieldErrors(validateLabels(labels, FieldPath.of(at("labels"))), problems);
  const annotations = readStringMap(object["annotations"], at("annotations"), problems) ?? {};
  fieldErrors(validateAnnotations(annotations, FieldPath.of(at("annotations"))), problems);
  const taints = readTaints(object["taints"], at("taints"), problems);

  const topology = readTopologyField(object["topology"], at("topology"), readFile, problems);
  if (topology !== undefined) {
    for (const p of interpreter.validate(topology, at("topology"))) problems.add("", p);
  }
  const kubelet = readKubeletSettings(object["kubelet"], at("kubelet"), problems);
  const kubeletValue = object["kubelet"];
  const maxPods = {
    value: kubelet.maxPods,
    explicit: isPlainObject(kubeletValue) && kubeletValue["maxPods"] !== undefined,
  };
  if (problems.list.length > before) return undefined;

  const capacity = resolveCapacity(object, path, maxPods, topology, interpreter, problems);
  const explicit = readResourceList(object["allocatable"], at("allocatable"), problems);
  const reserves =
    Object.keys(kubelet.systemReserved).length +
    Object.keys(kubelet.kubeReserved).length +
    Object.keys(kubelet.evictionHard).length;
  let allocatable: ResourceList;
  if (explicit !== undefined) {
    if (reserves > 0) {
      problems.add(
        at("allocatable"),
        "set either allocatable or kubelet.systemReserved/kubeReserved/evictionHard, not both",
      );
    }
    for (const [resource, amount] of Object.entries(explicit)) {
      const cap = capacity[resource];
      if (cap === undefined) {
        problems.add(
          childPath(at("allocatable"), resource),
          "is not in capacity; add it to capacity first",
        );
      } else if (compareQuantities(parseQuantity(amount), parseQuantity(cap)) > 0) {
        problems.add(
          childPath(at("allocatable"), resource),
          `${amount} is more than the capacity ${cap}; allocatable may only hold back`,
        );
      }
    }
    allocatable = { ...capacity, ...explicit };
  } else {
    const reservations = effectiveReservations(kubelet);
    for (const p of validateReservation(capacity, reservations)) problems.add(at("kubelet"), p);
    allocatable = computeAllocatable(capacity, reservations);
  }
  if (problems.list.length > before || name === undefined) return undefined;
  const machine =
    (topology === undefined ? undefined : interpreter.machine(topology, 0)) ??
    flatMachineTopology(quantityValue(parseQuantity(capacity["cpu"] ?? "0")), 0);
  const cpuProblem = cpuManagerProblem(kubelet, machine.nodes, at("kubelet"));
  if (cpuProblem !== undefined) {
    problems.add("", cpuProblem);
    return undefined;
  }
  return {
    name,
    count,
    namePrefix,
    instanceType,
    labels,
    annotations,
    taints,
    capacity,
    allocatable,
    ...(topology === undefined ? {} : { topology }),
    kubelet,
  };
}

function checkNames(pools: readonly NodePool[], problems: Problems): number {
  const owner = new Map<string, string>();
  let total = 0;
  pools.forEach((pool, i) => {
    const path = `nodePools[${i}]`;
    const names = poolNodeNames(pool);
    total += names.length;
    const first = names[0];
    if (first !== undefined) {
      const bad = isDns1123Subdomain(names[names.length - 1] ?? first);
      if (bad.length > 0) {
        problems.add(
          childPath(path, "namePrefix"),
          `makes node names such as ${JSON.stringify(first)} that are invalid: ${bad.join("; ")}`,
        );
      }
    }
    if (pools.findIndex((p) => p.name === pool.name) !== i) {
      problems.add(
        childPath(path, "name"),
        `${JSON.stringify(pool.name)} is used by another pool; pool names must be unique`,
      );
    }
    for (const name of names) {
      const other = owner.get(name);
      if (other !== undefined) {
        problems.add(
          childPath(path, "namePrefix"),
          `node ${JSON.stringify(name)} is also made by ${other}; give the pools different namePrefix values`,
        );
        break;
      }
      owner.set(name, path);
    }
  });
  return total;
}

/**
 * Parses and validates a cluster config. Throws `ClusterConfigError` listing every problem
 * (`nodePools[0].capacity.cpu: invalid quantity "four" …; write a quantity such as "4" …`).
 */
export function parseClusterConfig(
  text: string,
  options: ParseClusterConfigOptions = {},
): ClusterConfig {
  const source = options.source ?? "(inline)";
  const interpreter = options.topology ?? cadvisorTopologyInterpreter;
  const readFile = options.readFile ?? diskReader(source);
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ClusterConfigError(
      source,
      document.errors.map((e) => `not valid YAML: ${e.message.split("\n")[0] ?? e.message}`),
    );
  }
  const problems = new Problems();
  const root = readObject(document.toJS(), "", problems);
  if (root === undefined) {
    throw new ClusterConfigError(source, [
      `the file must be a mapping starting with apiVersion: ${clusterConfigApiVersion} and kind: ${clusterConfigKind}`,
    ]);
  }
  checkKeys(root, topFields, "", problems);
  if (root["apiVersion"] !== clusterConfigApiVersion) {
    problems.add(
      "apiVersion",
      `must be ${clusterConfigApiVersion}, got ${JSON.stringify(root["apiVersion"] ?? null)}`,
    );
  }
  if (root["kind"] !== clusterConfigKind) {
    problems.add(
      "kind",
      `must be ${clusterConfigKind}, got ${JSON.stringify(root["kind"] ?? null)}`,
    );
  }
  const networking = readNetworking(root["networking"], problems);
  const poolValues = readList(root["nodePools"], "nodePools", problems);
  if (poolValues === undefined && root["nodePools"] === undefined) {
    problems.add(
      "nodePools",
      "required: list the node pools (use [] for a cluster with only nodes you create yourself)",
    );
  }
  const controllerManager = readControllerManagerSettings(
    root["controllerManager"],
    "controllerManager",
    problems,
  );
  const pools: NodePool[] = [];
  (poolValues ?? []).forEach((value, i) => {
    const pool = readPool(value, `nodePools[${i}]`, interpreter, readFile, problems);
    if (pool === undefined) return;
    const heartbeat = heartbeatProblem(pool.kubelet, controllerManager, `nodePools[${i}].kubelet`);
    if (heartbeat !== undefined) problems.add("", heartbeat);
    for (const validate of options.validators ?? []) {
      for (const p of validate(pool, `nodePools[${i}]`)) problems.add("", p);
    }
    pools.push(pool);
  });
  const total = checkNames(pools, problems);
  const subnet = parseIpv4Cidr(networking.podSubnet);
  if (subnet !== undefined) {
    const room = subnetCount(subnet, networking.nodeCIDRMaskSize);
    if (room < total) {
      problems.add(
        "networking",
        `podSubnet ${networking.podSubnet} holds ${room} node ranges of /${networking.nodeCIDRMaskSize} but the pools have ${total} nodes; use a larger podSubnet or a larger nodeCIDRMaskSize`,
      );
    }
  }
  if (!problems.empty) throw new ClusterConfigError(source, problems.list);
  return {
    apiVersion: clusterConfigApiVersion,
    kind: clusterConfigKind,
    networking,
    nodePools: pools,
    controllerManager,
    ...(root["queueing"] === undefined ? {} : { queueing: root["queueing"] }),
  };
}
