import { createHash } from "node:crypto";
import { type Definitions, type KindDefinition, refName, type Schema } from "../../api/index.ts";
import { serverVersion, subresourcesOf } from "../discovery/discovery.ts";
import type { Store } from "../registry/generic/store.ts";
import type { ResourceRegistry } from "../registry/resource-registry.ts";

/** The path of a group/version's document: `api/v1`, `apis/apps/v1`. */
export function groupVersionPath(group: string, version: string): string {
  return group === "" ? `api/${version}` : `apis/${group}/${version}`;
}

/**
 * Upstream's definition naming: `io.k8s.api.core.v1.Pod`, `com.example.v1.Widget`. A kind whose
 * schema is inline takes the name of the table's definition tagged with its group/version/kind
 * (`io.k8s.api.apps.v1.Deployment`), else one made from the group (a CRD's).
 */
export function definitionNameOf(d: KindDefinition): string {
  const top = refName(d.schema.schema);
  if (top !== undefined) return top;
  for (const [name, schema] of Object.entries(d.schema.definitions)) {
    const kinds = schema["x-kubernetes-group-version-kind"] ?? [];
    if (kinds.some((k) => k.group === d.group && k.version === d.version && k.kind === d.kind)) {
      return name;
    }
  }
  if (d.group === "") return `io.k8s.api.core.${d.version}.${d.kind}`;
  const reversed = d.group.split(".").reverse().join(".");
  return `${reversed}.${d.version}.${d.kind}`;
}

const parameters: Record<string, object> = {
  dryRun: {
    name: "dryRun",
    in: "query",
    description:
      "When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed",
    schema: { type: "string", uniqueItems: true },
  },
  fieldManager: {
    name: "fieldManager",
    in: "query",
    description:
      "fieldManager is a name associated with the actor or entity that is making these changes.",
    schema: { type: "string", uniqueItems: true },
  },
  fieldValidation: {
    name: "fieldValidation",
    in: "query",
    description:
      "fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields. Valid values are: Ignore, Warn (the default), Strict.",
    schema: { type: "string", uniqueItems: true },
  },
  force: {
    name: "force",
    in: "query",
    description:
      'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people.',
    schema: { type: "boolean", uniqueItems: true },
  },
  pretty: {
    name: "pretty",
    in: "query",
    description: "If 'true', then the output is pretty printed.",
    schema: { type: "string", uniqueItems: true },
  },
};

/** Inline parameters: kubectl looks for `fieldValidation` by name without resolving `$ref`s. */
function paramRefs(names: readonly string[]): object[] {
  return names.map((n) => parameters[n] ?? { name: n, in: "query" });
}

function operations(store: Store, schemaName: string): Record<string, object> {
  const d = store.entry.definition;
  const gvk = { group: d.group, version: d.version, kind: d.kind };
  const prefix = d.group === "" ? `/api/${d.version}` : `/apis/${d.group}/${d.version}`;
  const collection = d.namespaced
    ? `${prefix}/namespaces/{namespace}/${d.resource}`
    : `${prefix}/${d.resource}`;
  const item = `${collection}/{name}`;
  const ref = { $ref: `#/components/schemas/${schemaName}` };
  const json = { "application/json": { schema: ref } };
  const patchContent: Record<string, object> = {
    "application/apply-patch+yaml": {
      schema: { $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch" },
    },
    "application/json-patch+json": {
      schema: { $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch" },
    },
    "application/merge-patch+json": {
      schema: { $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch" },
    },
  };
  if (store.entry.strategy.customResource !== true) {
    patchContent["application/strategic-merge-patch+json"] = {
      schema: { $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch" },
    };
  }
  const op = (verb: string, action: string, extra: object): object => ({
    description: `${verb} the specified ${d.kind}`,
    operationId: `${action}${d.kind}`,
    "x-kubernetes-action": action,
    "x-kubernetes-group-version-kind": gvk,
    responses: { "200": { description: "OK", content: json } },
    ...extra,
  });
  const paths: Record<string, object> = {
    [collection]: {
      post: op("create", "post", {
        requestBody: { content: { "*/*": { schema: ref } }, required: true },
        parameters: paramRefs(["dryRun", "fieldManager", "fieldValidation", "pretty"]),
      }),
    },
    [item]: {
      get: op("read", "get", {}),
      put: op("replace", "put", {
        requestBody: { content: { "*/*": { schema: ref } }, required: true },
        parameters: paramRefs(["dryRun", "fieldManager", "fieldValidation", "pretty"]),
      }),
      patch: op("partially update", "patch", {
        requestBody: { content: patchContent, required: true },
        parameters: paramRefs(["dryRun", "fieldManager", "fieldValidation", "force", "pretty"]),
      }),
      delete: op("delete", "delete", {}),
    },
  };
  for (const sub of subresourcesOf(store)) {
    if (sub.name === "status") {
      paths[`${item}/status`] = {
        patch: op("partially update status of", "patch", {
          requestBody: { content: patchContent, required: true },
          parameters: paramRefs(["dryRun", "fieldManager", "fieldValidation", "force", "pretty"]),
        }),
      };
    }
  }
  return paths;
}

/** One group/version's OpenAPI v3 document: paths with their GVKs, and every schema. */
export function groupVersionDocument(
  registry: ResourceRegistry,
  group: string,
  version: string,
): object {
  const stores = registry
    .stores()
    .filter((s) => s.entry.definition.group === group && s.entry.definition.version === version);
  let paths: Record<string, object> = {};
  for (const store of stores) {
    paths = { ...paths, ...operations(store, definitionNameOf(store.entry.definition)) };
  }
  return {
    openapi: "3.0.0",
    info: { title: "Kubernetes", version: serverVersion.gitVersion },
    paths,
    components: { schemas: kindSchemas(stores), parameters },
  };
}

/**
 * Every schema the kinds of `stores` use, by definition name, each kind's own carrying
 * `x-kubernetes-group-version-kind` (every group/version/kind it is served as), plus the PATCH
 * body's `Patch`.
 */
export function kindSchemas(stores: readonly Store[]): Record<string, Schema> {
  const schemas: Record<string, Schema> = {
    "io.k8s.apimachinery.pkg.apis.meta.v1.Patch": {
      type: "object",
      description:
        "Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.",
    },
  };
  for (const store of stores) {
    const d = store.entry.definition;
    const name = definitionNameOf(d);
    collectDefinitions(d.schema.definitions, schemas);
    const top =
      refName(d.schema.schema) === undefined
        ? d.schema.schema
        : (d.schema.definitions[name] ?? d.schema.schema);
    const gvk = { group: d.group, version: d.version, kind: d.kind };
    const served = schemas[name]?.["x-kubernetes-group-version-kind"] ?? [];
    const known = served.some(
      (k) => k.group === gvk.group && k.version === gvk.version && k.kind === gvk.kind,
    );
    schemas[name] = {
      ...top,
      "x-kubernetes-group-version-kind": known ? served : [...served, gvk],
    };
  }
  return schemas;
}

function collectDefinitions(definitions: Definitions, into: Record<string, Schema>): void {
  for (const [name, schema] of Object.entries(definitions)) {
    if (into[name] === undefined) into[name] = schema;
  }
}

/** kube-openapi's document hash and ETag: the upper-case hex SHA-512 of the JSON text. */
export function sha512Hex(text: string): string {
  return createHash("sha512").update(text).digest("hex").toUpperCase();
}

/** Caches rendered documents and their hashes until the registry changes. */
export class OpenApiDocuments {
  readonly #registry: ResourceRegistry;
  #generation = -1;
  #documents = new Map<string, { text: string; hash: string }>();

  constructor(registry: ResourceRegistry) {
    this.#registry = registry;
  }

  /** `GET /openapi/v3`: the index of group/version documents with content hashes. */
  index(): object {
    this.#refresh();
    const paths: Record<string, object> = {};
    for (const [path, doc] of this.#documents) {
      paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${doc.hash}` };
    }
    return { paths };
  }

  /** The JSON text of one document, or undefined if no such group/version is served. */
  document(path: string): { text: string; hash: string } | undefined {
    this.#refresh();
    return this.#documents.get(path);
  }

  #refresh(): void {
    if (this.#generation === this.#registry.generation) return;
    const documents = new Map<string, { text: string; hash: string }>();
    for (const group of this.#registry.groups()) {
      for (const version of group.versions) {
        const text = JSON.stringify(groupVersionDocument(this.#registry, group.name, version));
        const hash = sha512Hex(text);
        documents.set(groupVersionPath(group.name, version), { text, hash });
      }
    }
    this.#documents = documents;
    this.#generation = this.#registry.generation;
  }
}
