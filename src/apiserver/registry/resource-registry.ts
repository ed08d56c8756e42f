import type { KindDefinition } from "../../api/index.ts";
import { Store, type StoreDeps } from "./generic/store.ts";
import type { ResourceEntry } from "./generic/strategy.ts";

/** A served group with its versions, preferred first. */
export interface ServedGroup {
  readonly name: string;
  readonly versions: readonly string[];
}

/**
 * Every resource the server serves, built-in or from a CRD, looked up by group, version and
 * plural name. Changes (a CRD established or deleted) bump `generation`, so discovery and OpenAPI
 * documents know when to rebuild.
 */
export class ResourceRegistry {
  readonly #stores = new Map<string, Store>();
  readonly #deps: StoreDeps;
  #generation = 0;

  constructor(deps: StoreDeps) {
    this.#deps = deps;
  }

  get generation(): number {
    return this.#generation;
  }

  /** Serves a resource; replaces an earlier entry for the same group/version/resource. */
  add(entry: ResourceEntry): Store {
    const store = new Store(entry, this.#deps);
    this.#stores.set(
      lookupKey(entry.definition.group, entry.definition.version, entry.definition.resource),
      store,
    );
    this.#generation++;
    return store;
  }

  /** A store for `entry` that is not served, e.g. to delete what a CRD no longer serves. */
  detached(entry: ResourceEntry): Store {
    return new Store(entry, this.#deps);
  }

  remove(group: string, version: string, resource: string): void {
    if (this.#stores.delete(lookupKey(group, version, resource))) this.#generation++;
  }

  lookup(group: string, version: string, resource: string): Store | undefined {
    return this.#stores.get(lookupKey(group, version, resource));
  }

  /** Finds the store for a kind, e.g. to follow an ownerReference. */
  lookupKind(group: string, version: string, kind: string): Store | undefined {
    for (const store of this.#stores.values()) {
      const d = store.entry.definition;
      if (d.group === group && d.version === version && d.kind === kind) return store;
    }
    return undefined;
  }

  /** Every served kind. */
  definitions(): KindDefinition[] {
    return [...this.#stores.values()].map((s) => s.entry.definition);
  }

  stores(): Store[] {
    return [...this.#stores.values()];
  }

  /** Whether anything is served at group/version. */
  hasGroupVersion(group: string, version: string): boolean {
    for (const store of this.#stores.values()) {
      const d = store.entry.definition;
      if (d.group === group && d.version === version) return true;
    }
    return false;
  }

  /** Served groups (core first), each with versions in preference order. */
  groups(): ServedGroup[] {
    const versions = new Map<string, Set<string>>();
    for (const store of this.#stores.values()) {
      const d = store.entry.definition;
      let set = versions.get(d.group);
      if (set === undefined) {
        set = new Set();
        versions.set(d.group, set);
      }
      set.add(d.version);
    }
    return [...versions.entries()]
      .map(([name, set]) => ({ name, versions: [...set].sort(compareVersions) }))
      .sort((a, b) => groupOrder(a.name) - groupOrder(b.name) || a.name.localeCompare(b.name));
  }
}

function lookupKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

/** Upstream's discovery order puts the core group and the oldest built-in groups first. */
const builtInOrder = [
  "",
  "apiregistration.k8s.io",
  "apps",
  "events.k8s.io",
  "authentication.k8s.io",
  "authorization.k8s.io",
  "autoscaling",
  "batch",
  "certificates.k8s.io",
  "networking.k8s.io",
  "policy",
  "rbac.authorization.k8s.io",
  "storage.k8s.io",
  "admissionregistration.k8s.io",
  "apiextensions.k8s.io",
  "scheduling.k8s.io",
  "coordination.k8s.io",
  "node.k8s.io",
  "discovery.k8s.io",
  "flowcontrol.apiserver.k8s.io",
];

function groupOrder(group: string): number {
  const at = builtInOrder.indexOf(group);
  return at < 0 ? builtInOrder.length : at;
}

/**
 * Kubernetes version priority: GA before beta before alpha, higher numbers first
 * (`v2 > v1 > v1beta2 > v1beta1 > v1alpha1`), anything else last alphabetically.
 */
export function compareVersions(a: string, b: string): number {
  return versionRank(b) - versionRank(a) || (versionRank(a) === 0 ? a.localeCompare(b) : 0);
}

function versionRank(version: string): number {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(version);
  if (m === null) return 0;
  const major = Number(m[1]);
  const stage = m[2] === undefined ? 3 : m[2] === "beta" ? 2 : 1;
  const minor = m[3] === undefined ? 0 : Number(m[3]);
  return stage * 1_000_000 + major * 1000 + minor;
}
