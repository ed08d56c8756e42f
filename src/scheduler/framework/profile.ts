/**
 * How a scheduler profile is assembled (upstream's `KubeSchedulerProfile` and `Registry`): a
 * registry maps plugin names to factories; a profile names the plugins to enable, in order, with
 * their score weights and arguments. Every enabled plugin runs at each extension point it
 * implements (upstream's `multiPoint`), in profile order.
 */
import type { AnyPlugin } from "./extension-points.ts";
import type { Handle } from "./handle.ts";

/** Builds a plugin. `args` is the profile's `args` for it (undefined for defaults). */
export type PluginFactory = (handle: Handle, args: unknown) => AnyPlugin;

/** Plugin name → factory. `cmd/` may add out-of-tree plugins to the in-tree registry. */
export type Registry = ReadonlyMap<string, PluginFactory>;

export interface PluginConfig {
  readonly name: string;
  /** Weight of the plugin's score. @default 1 */
  readonly weight?: number;
  /** Plugin arguments, passed to the factory. @default undefined */
  readonly args?: unknown;
}

export interface Profile {
  /** Pods with this `spec.schedulerName` use the profile. @default "default-scheduler" */
  readonly schedulerName: string;
  /** The enabled plugins, in the order they run. Exactly one must implement `less`. */
  readonly plugins: readonly PluginConfig[];
  /**
   * Stop filtering once this percentage of the nodes fit (at least 100 nodes); 0 picks upstream's
   * adaptive default (50% minus 1% per 125 nodes, at least 5%). @default 0
   */
  readonly percentageOfNodesToScore?: number;
}
