/**
 * Upstream's `EndpointSliceTracker`: the generation this controller last wrote for each slice
 * of a Service (or that it deleted one), so that a reconcile on an informer cache that has not
 * caught up with those writes waits instead of creating duplicates. One per controller.
 */
import type { EndpointSlice } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** The generation a deleted slice is tracked with. */
const deleted = -1;

export class EndpointSliceTracker {
  readonly #byService = new Map<string, Map<string, number>>();

  /** Records a slice this controller created or updated. */
  wrote(serviceKey: string, slice: DeepReadonly<EndpointSlice>): void {
    this.#slices(serviceKey).set(slice.metadata.name ?? "", slice.metadata.generation ?? 1);
  }

  /** Records a slice this controller deleted. */
  deleted(serviceKey: string, name: string): void {
    this.#slices(serviceKey).set(name, deleted);
  }

  /**
   * Whether the cached slices lag behind this controller's writes: a written slice missing or
   * at an older generation, or a deleted one still there. Entries the cache has caught up with
   * are dropped.
   */
  isStale(serviceKey: string, cached: readonly DeepReadonly<EndpointSlice>[]): boolean {
    const tracked = this.#byService.get(serviceKey);
    if (tracked === undefined) return false;
    const byName = new Map(cached.map((s) => [s.metadata.name ?? "", s]));
    let stale = false;
    for (const [name, generation] of tracked) {
      const slice = byName.get(name);
      const caughtUp =
        generation === deleted
          ? slice === undefined || slice.metadata.deletionTimestamp !== undefined
          : slice !== undefined && (slice.metadata.generation ?? 1) >= generation;
      if (caughtUp) tracked.delete(name);
      else stale = true;
    }
    if (tracked.size === 0) this.#byService.delete(serviceKey);
    return stale;
  }

  forget(serviceKey: string): void {
    this.#byService.delete(serviceKey);
  }

  #slices(serviceKey: string): Map<string, number> {
    let slices = this.#byService.get(serviceKey);
    if (slices === undefined) {
      slices = new Map();
      this.#byService.set(serviceKey, slices);
    }
    return slices;
  }
}
