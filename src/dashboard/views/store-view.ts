/**
 * The base of every view: renders into the light DOM (so the bundled stylesheet applies), takes
 * leases on the stores it names while it is connected, and renders again when any of them
 * changes (Lit batches the requests into one render per task).
 */
import { LitElement, type PropertyValues } from "lit";
import type { ClusterData, ResourceName, ResourceTypes, StoreLease } from "../data/cluster-data.ts";

export abstract class StoreView extends LitElement {
  static override properties = { data: { attribute: false } };
  declare data: ClusterData | undefined;
  /** The stores this view reads. */
  protected abstract readonly resources: readonly ResourceName[];
  #leases = new Map<ResourceName, StoreLease<ResourceName>>();
  #unsubscribes: (() => void)[] = [];

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#acquire();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#releaseAll();
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has("data")) {
      this.#releaseAll();
      this.#acquire();
    }
  }

  /** The objects of `resource`, sorted by key; empty before the view holds the store. */
  protected items<T extends ResourceName>(resource: T): readonly ResourceTypes[T][] {
    const lease = this.#leases.get(resource) as StoreLease<T> | undefined;
    return lease?.store.items() ?? [];
  }

  /** "" when every store is in sync, else what is still loading or failing. */
  protected syncProblem(): string {
    for (const [resource, lease] of this.#leases) {
      const state = lease.store.state;
      if (state.kind === "failing") return `Cannot read ${resource}: ${state.message}`;
      if (state.kind === "loading") return `Loading ${resource}…`;
    }
    return "";
  }

  #acquire(): void {
    if (this.data === undefined || !this.isConnected || this.#leases.size > 0) return;
    for (const resource of this.resources) {
      const lease = this.data.use(resource);
      this.#leases.set(resource, lease);
      this.#unsubscribes.push(lease.store.subscribe(() => this.requestUpdate()));
    }
  }

  #releaseAll(): void {
    for (const unsubscribe of this.#unsubscribes) unsubscribe();
    this.#unsubscribes = [];
    for (const lease of this.#leases.values()) lease.release();
    this.#leases.clear();
  }
}
