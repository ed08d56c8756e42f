import { createHash } from "node:crypto";
import type { KindDefinition } from "../../api/index.ts";
import type { Store } from "../registry/generic/store.ts";
import type { ResourceRegistry } from "../registry/resource-registry.ts";

/** The version gantry reports: the Kubernetes release whose APIs it serves. */
export const serverVersion = {
  major: "1",
  minor: "35",
  gitVersion: "v1.35.0",
  gitCommit: "0000000000000000000000000000000000000000",
  gitTreeState: "clean",
  buildDate: "2026-11-01T00:00:00Z",
  goVersion: "go1.25.0",
  compiler: "gc",
  platform: "linux/amd64",
} as const;

interface SubresourceInfo {
  readonly name: string;
  readonly group?: string;
  readonly version?: string;
  readonly kind: string;
  readonly verbs: readonly string[];
}

/** The subresources a stored resource serves, with their response kinds. */
export function subresourcesOf(store: Store): SubresourceInfo[] {
  const d = store.entry.definition;
  const out: SubresourceInfo[] = [];
  for (const name of store.entry.strategy.subresources ?? []) {
    switch (name) {
      case "binding":
        out.push({ name, kind: "Binding", verbs: ["create"] });
        break;
      case "eviction":
        out.push({ name, group: "policy", version: "v1", kind: "Eviction", verbs: ["create"] });
        break;
      case "finalize":
        out.push({ name, kind: d.kind, verbs: ["update"] });
        break;
      case "attach":
      case "exec":
      case "portforward":
        out.push({
          name,
          kind:
            name === "portforward"
              ? "PodPortForwardOptions"
              : name === "exec"
                ? "PodExecOptions"
                : "PodAttachOptions",
          verbs: ["create", "get"],
        });
        break;
      case "token":
        out.push({
          name,
          group: "authentication.k8s.io",
          version: "v1",
          kind: "TokenRequest",
          verbs: ["create"],
        });
        break;
      default:
        out.push({ name, kind: d.kind, verbs: ["get"] });
    }
  }
  if (d.subresources.scale !== undefined) {
    out.push({
      name: "scale",
      group: "autoscaling",
      version: "v1",
      kind: "Scale",
      verbs: ["get", "patch", "update"],
    });
  }
  if (d.subresources.status)
    out.push({ name: "status", kind: d.kind, verbs: ["get", "patch", "update"] });
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function storageVersionHash(d: KindDefinition): string {
  return createHash("sha256")
    .update(`${d.group}/${d.version}/${d.kind}`)
    .digest("base64")
    .slice(0, 11);
}

/** `GET /api/v1` or `/apis/G/V`: the legacy APIResourceList. */
export function apiResourceList(
  registry: ResourceRegistry,
  group: string,
  version: string,
): object {
  const resources: object[] = [];
  const stores = registry
    .stores()
    .filter((s) => s.entry.definition.group === group && s.entry.definition.version === version)
    .sort((a, b) => a.entry.definition.resource.localeCompare(b.entry.definition.resource));
  for (const store of stores) {
    const d = store.entry.definition;
    const entry: Record<string, unknown> = {
      name: d.resource,
      singularName: d.singular,
      namespaced: d.namespaced,
      kind: d.kind,
      verbs: [...d.verbs].sort(),
    };
    if (d.shortNames.length > 0) entry["shortNames"] = d.shortNames;
    if (d.categories.length > 0) entry["categories"] = d.categories;
    entry["storageVersionHash"] = storageVersionHash(d);
    resources.push(entry);
    for (const sub of subresourcesOf(store)) {
      const subEntry: Record<string, unknown> = {
        name: `${d.resource}/${sub.name}`,
        singularName: "",
        namespaced: d.namespaced,
      };
      if (sub.group !== undefined) subEntry["group"] = sub.group;
      if (sub.version !== undefined) subEntry["version"] = sub.version;
      subEntry["kind"] = sub.kind;
      subEntry["verbs"] = sub.verbs;
      resources.push(subEntry);
    }
  }
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion: group === "" ? version : `${group}/${version}`,
    resources,
  };
}

/** `GET /api`: the legacy APIVersions. */
export function apiVersions(address: string): object {
  return {
    kind: "APIVersions",
    versions: ["v1"],
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: address }],
  };
}

function groupEntry(name: string, versions: readonly string[]): object {
  const list = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: list, preferredVersion: list[0] };
}

/** `GET /apis`: the legacy APIGroupList (core excluded). */
export function apiGroupList(registry: ResourceRegistry): object {
  return {
    kind: "APIGroupList",
    apiVersion: "v1",
    groups: registry
      .groups()
      .filter((g) => g.name !== "")
      .map((g) => groupEntry(g.name, g.versions)),
  };
}

/** `GET /apis/G`: one APIGroup, or undefined if not served. */
export function apiGroup(registry: ResourceRegistry, name: string): object | undefined {
  const group = registry.groups().find((g) => g.name === name);
  if (group === undefined || name === "") return undefined;
  return { kind: "APIGroup", apiVersion: "v1", ...groupEntry(group.name, group.versions) };
}

/** Aggregated discovery (`apidiscovery.k8s.io` v2 or v2beta1) for `/api` (core) or `/apis`. */
export function aggregatedDiscovery(
  registry: ResourceRegistry,
  core: boolean,
  version: "v2" | "v2beta1",
): object {
  const items = registry
    .groups()
    .filter((g) => (g.name === "") === core)
    .map((g) => ({
      metadata: core ? { creationTimestamp: null } : { name: g.name, creationTimestamp: null },
      versions: g.versions.map((v) => ({
        version: v,
        resources: registry
          .stores()
          .filter((s) => s.entry.definition.group === g.name && s.entry.definition.version === v)
          .sort((a, b) => a.entry.definition.resource.localeCompare(b.entry.definition.resource))
          .map((s) => aggregatedResource(s)),
        freshness: "Current",
      })),
    }));
  return {
    kind: "APIGroupDiscoveryList",
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items,
  };
}

function aggregatedResource(store: Store): object {
  const d = store.entry.definition;
  const entry: Record<string, unknown> = {
    resource: d.resource,
    responseKind: { group: d.group, version: d.version, kind: d.kind },
    scope: d.namespaced ? "Namespaced" : "Cluster",
    singularResource: d.singular,
    verbs: [...d.verbs].sort(),
  };
  if (d.shortNames.length > 0) entry["shortNames"] = d.shortNames;
  if (d.categories.length > 0) entry["categories"] = d.categories;
  const subs = subresourcesOf(store);
  if (subs.length > 0) {
    entry["subresources"] = subs.map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group ?? d.group, version: s.version ?? d.version, kind: s.kind },
      verbs: s.verbs,
    }));
  }
  return entry;
}

/** The Content-Type of an aggregated discovery response. */
export function aggregatedContentType(version: "v2" | "v2beta1"): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}
