import type { ResourceRef } from "./client.ts";

/** What a request addresses: a collection, one object, or one of its subresources. */
export interface Target {
  readonly resource: ResourceRef;
  /** "" or undefined: cluster-scoped, or every namespace of a namespaced collection. */
  readonly namespace: string | undefined;
  readonly name?: string;
  readonly subresource?: string;
}

/**
 * Checks a call's namespace against the resource's scope and returns the namespace to use ("" for
 * none). Calls on one object (`single`) of a namespaced resource need a namespace; collections
 * of a namespaced resource may span every namespace; cluster-scoped resources take none. A
 * mismatch is a programming error, so it throws a TypeError before anything is sent.
 */
export function scopedNamespace(
  verb: string,
  resource: ResourceRef,
  namespace: string | undefined,
  single: boolean,
  name?: string,
): string {
  const ns = namespace ?? "";
  const what =
    name === undefined ? qualified(resource) : `${qualified(resource)} ${JSON.stringify(name)}`;
  if (!resource.namespaced && ns !== "") {
    throw new TypeError(
      `Cannot ${verb} ${what} in namespace ${JSON.stringify(ns)}: the resource is cluster-scoped`,
    );
  }
  if (resource.namespaced && single && ns === "") {
    throw new TypeError(`Cannot ${verb} ${what}: the resource is namespaced, so give a namespace`);
  }
  if (name === "") throw new TypeError(`Cannot ${verb} ${what}: the name is empty`);
  return ns;
}

/** `deployments.apps` or `pods`, as upstream names a resource. */
export function qualified(resource: ResourceRef): string {
  return resource.group === "" ? resource.resource : `${resource.resource}.${resource.group}`;
}

/**
 * The URL path of a target: `/api/v1/namespaces/ns/pods/name/status`,
 * `/apis/apps/v1/deployments` (every namespace), `/api/v1/nodes/n1`.
 */
export function pathOf(target: Target): string {
  const { resource } = target;
  const segments =
    resource.group === "" ? ["api", resource.version] : ["apis", resource.group, resource.version];
  const namespace = target.namespace ?? "";
  if (resource.namespaced && namespace !== "") segments.push("namespaces", namespace);
  segments.push(resource.resource);
  if (target.name !== undefined) segments.push(target.name);
  if (target.subresource !== undefined && target.subresource !== "") {
    segments.push(target.subresource);
  }
  return `/${segments.map(encodeURIComponent).join("/")}`;
}

/** Query parameters, skipping undefined values; booleans as "true"/"false". */
export function queryOf(
  params: Readonly<Record<string, string | number | boolean | undefined>>,
): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) query.set(key, String(value));
  }
  const text = query.toString();
  return text === "" ? "" : `?${text}`;
}
