/** The cluster config file (`--config FILE`, see examples/cluster.yaml) the commands read. */
import { readFileSync } from "node:fs";
import {
  type ClusterConfig,
  ClusterConfigError,
  defaultClusterConfig,
  defaultNodeCount,
  parseClusterConfig,
} from "../kubelet/index.ts";
import { UsageError } from "./usage-error.ts";

/** Reads and checks `file`; a UsageError says what is wrong with it. */
export function readClusterConfig(file: string): ClusterConfig {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error: unknown) {
    throw new UsageError(
      `Cannot read the cluster config ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    return parseClusterConfig(text, { source: file });
  } catch (error: unknown) {
    if (error instanceof ClusterConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** The node pools from `--config FILE`, or `--nodes N` default nodes (3 without either). */
export function clusterConfigOf(
  file: string | undefined,
  nodes: string | undefined,
): ClusterConfig {
  if (file !== undefined && nodes !== undefined) {
    throw new UsageError("Cannot use --nodes with --config: set the pools' counts in the file");
  }
  if (file !== undefined) return readClusterConfig(file);
  const count = nodes === undefined ? defaultNodeCount : Number(nodes);
  if (!Number.isInteger(count) || count < 0) {
    throw new UsageError(`Cannot run "${nodes}" nodes: give a whole number, 0 or more`);
  }
  return defaultClusterConfig(count);
}
