/**
 * Per-cycle scratch space shared by a profile's plugins (upstream's `CycleState`): a plugin writes
 * what it computed at PreFilter/PreScore and reads it back at Filter/Score. Created fresh for each
 * scheduling attempt and discarded afterwards; preemption clones it to simulate removing pods.
 */
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** Anything stored in a CycleState; `clone` must copy whatever a later mutation would touch. */
export interface StateData {
  clone(): StateData;
}

declare const keyType: unique symbol;
/** A typed key: what `read` returns for it is what `write` stored under it. */
export type StateKey<T extends StateData> = string & { readonly [keyType]: T };

/** Declares a key; by convention `"<ExtensionPoint><PluginName>"` as upstream. */
export function stateKey<T extends StateData>(name: string): StateKey<T> {
  return name as StateKey<T>;
}

export class CycleState {
  readonly #data = new Map<string, StateData>();
  /** Plugins whose PreFilter returned Skip: their Filter does not run this cycle. */
  readonly skipFilterPlugins = new Set<string>();
  /** Plugins whose PreScore returned Skip: their Score does not run this cycle. */
  readonly skipScorePlugins = new Set<string>();

  read<T extends StateData>(key: StateKey<T>): T | undefined {
    return this.#data.get(key) as T | undefined;
  }

  write<T extends StateData>(key: StateKey<T>, data: T): void {
    this.#data.set(key, data);
  }

  delete(key: StateKey<StateData>): void {
    this.#data.delete(key);
  }

  /** A copy whose entries are cloned, for simulations that must not disturb this cycle. */
  clone(): CycleState {
    const copy = new CycleState();
    for (const [key, data] of this.#data) copy.#data.set(key, data.clone());
    for (const name of this.skipFilterPlugins) copy.skipFilterPlugins.add(name);
    for (const name of this.skipScorePlugins) copy.skipScorePlugins.add(name);
    return copy;
  }
}

/**
 * Pods a plugin wants moved to the active queue at the end of a successful cycle (upstream's
 * `PodsToActivate`), keyed by `namespace/name`. Gang scheduling uses it to pull a group's other
 * members forward once one member reaches Permit.
 */
export class PodsToActivate implements StateData {
  readonly pods = new Map<string, DeepReadonly<Pod>>();

  clone(): PodsToActivate {
    return this;
  }
}

/** Where the scheduler keeps a cycle's `PodsToActivate`. */
export const podsToActivateKey = stateKey<PodsToActivate>("kubernetes.io/pods-to-activate");
