/**
 * The checkpoint file `cpu_manager_state`, byte for byte as the kubelet writes it:
 * `{"policyName":"static","defaultCpuSet":"0,2-12","entries":{"<pod uid>":{"<container>":"1,13"}},"checksum":1552716370}`
 * (Go's `json.Marshal`: sorted map keys, `entries` left out when empty), and its restore with
 * upstream's checks and messages.
 */

import { errorMessage } from "../../../util/index.ts";
import { CpuSet } from "../cpuset.ts";
import { checksumV1, checksumV2 } from "./checksum.ts";
import { CpuManagerState } from "./state.ts";

export const checkpointFileName = "cpu_manager_state";

/** Go's `json.Marshal` of a string (it escapes <, > and & and the line separators too). */
function goString(text: string): string {
  return JSON.stringify(text).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function entriesOf(state: CpuManagerState): Record<string, Record<string, string>> {
  const entries: Record<string, Record<string, string>> = {};
  for (const [pod, containers] of state.assignments()) {
    entries[pod] = Object.fromEntries([...containers].map(([c, cpus]) => [c, cpus.toString()]));
  }
  return entries;
}

/** The checkpoint JSON of `state` under `policyName`, checksum included. */
export function encodeCheckpoint(policyName: string, state: CpuManagerState): string {
  const defaultCpuSet = state.defaultCpuSet().toString();
  const entries = entriesOf(state);
  const checksum = checksumV2(policyName, defaultCpuSet, entries);
  const pods = Object.keys(entries).sort(byteOrder);
  const entriesJson =
    pods.length === 0
      ? ""
      : `,"entries":{${pods
          .map((pod) => {
            const containers = entries[pod] ?? {};
            const inner = Object.keys(containers)
              .sort(byteOrder)
              .map((c) => `${goString(c)}:${goString(containers[c] ?? "")}`)
              .join(",");
            return `${goString(pod)}:{${inner}}`;
          })
          .join(",")}}`;
  return `{"policyName":${goString(policyName)},"defaultCpuSet":${goString(defaultCpuSet)}${entriesJson},"checksum":${checksum}}`;
}

/** A checkpoint the kubelet would refuse; `message` is upstream's. */
export class CheckpointError extends Error {
  override readonly name = "CheckpointError";
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

interface Decoded {
  readonly policyName: string;
  readonly defaultCpuSet: string;
  readonly entries: Record<string, Record<string, string>>;
}

function stringField(object: Obj, key: string): string {
  const value = object[key];
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") {
    throw new CheckpointError(
      `json: cannot unmarshal ${typeof value} into Go struct field CPUManagerCheckpoint.${key} of type string`,
    );
  }
  return value;
}

/** Upstream tries the v1 layout first (container id → cpuset), then v2. */
function decode(text: string): Decoded {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error: unknown) {
    throw new CheckpointError(errorMessage(error));
  }
  if (!isObject(raw))
    throw new CheckpointError("json: cannot unmarshal the checkpoint: not an object");
  const policyName = stringField(raw, "policyName");
  const defaultCpuSet = stringField(raw, "defaultCpuSet");
  const checksum = typeof raw["checksum"] === "number" ? raw["checksum"] : 0;
  const entries = isObject(raw["entries"]) ? raw["entries"] : {};
  const values = Object.values(entries);
  if (values.every((v) => typeof v === "string")) {
    const v1 = entries as Record<string, string>;
    if (checksum === 0 || checksumV1(policyName, defaultCpuSet, v1) === checksum) {
      const ids = Object.keys(v1);
      if (ids.length > 0) {
        // Migrating v1 needs the runtime's container ids, which an emulated node has none of.
        throw new CheckpointError(
          `error migrating v1 checkpoint state to v2 checkpoint state: containerID '${ids[0]}' not found in initial containers list`,
        );
      }
      return { policyName, defaultCpuSet, entries: {} };
    }
  }
  const v2: Record<string, Record<string, string>> = {};
  for (const [pod, containers] of Object.entries(entries)) {
    if (!isObject(containers) || !Object.values(containers).every((v) => typeof v === "string")) {
      throw new CheckpointError(
        "json: cannot unmarshal the checkpoint entries: want pod UID → container name → cpuset",
      );
    }
    v2[pod] = containers as Record<string, string>;
  }
  if (checksum !== 0 && checksumV2(policyName, defaultCpuSet, v2) !== checksum) {
    throw new CheckpointError("checkpoint is corrupted");
  }
  return { policyName, defaultCpuSet, entries: v2 };
}

/**
 * Restores the state from checkpoint `text` for `policyName`, as upstream's `restoreState`.
 * Throws `CheckpointError` with the kubelet's full message, naming `path`.
 */
export function decodeCheckpoint(text: string, policyName: string, path: string): CpuManagerState {
  try {
    const decoded = decode(text);
    if (decoded.policyName !== policyName) {
      throw new CheckpointError(
        `configured policy ${goString(policyName)} differs from state checkpoint policy ${goString(decoded.policyName)}`,
      );
    }
    let defaultCpuSet: CpuSet;
    try {
      defaultCpuSet = CpuSet.parse(decoded.defaultCpuSet);
    } catch (error: unknown) {
      throw new CheckpointError(
        `could not parse default cpu set ${goString(decoded.defaultCpuSet)}: ${errorMessage(error)}`,
      );
    }
    const state = new CpuManagerState(defaultCpuSet);
    for (const [pod, containers] of Object.entries(decoded.entries)) {
      for (const [container, text] of Object.entries(containers)) {
        try {
          state.setCpuSet(pod, container, CpuSet.parse(text));
        } catch (error: unknown) {
          throw new CheckpointError(
            `could not parse cpuset ${goString(text)} for container ${goString(container)} in pod ${goString(pod)}: ${errorMessage(error)}`,
          );
        }
      }
    }
    return state;
  } catch (error: unknown) {
    if (!(error instanceof CheckpointError)) throw error;
    throw new CheckpointError(
      `could not restore state from checkpoint: ${error.message}, please drain this node and delete the CPU manager checkpoint file ${goString(path)} before restarting Kubelet`,
    );
  }
}
