/**
 * Seeded bad requests for one route: for each verb the route serves, a request with exactly one
 * fault that upstream rejects (bad bytes, wrong kind or type, bad name, bad options, wrong
 * Content-Type, oversized body, stale resourceVersion), or a method the route does not serve.
 */
import type { Random } from "../../util/index.ts";
import {
  type BadRequest,
  badFieldSelectors,
  badLabelSelectors,
  badNames,
  badPathSegments,
  collectionPath,
  type DiscoveredResource,
  deeplyNested,
  fuzzNamespace,
  itemPath,
  jsonHeaders,
  notJson,
  notYaml,
  oversized,
  patchTypes,
  pathsOf,
  pick,
  targetName,
  truncated,
  unsupportedContentTypes,
  withValueAt,
  wrongTypeFor,
} from "./bad-input-garbage.ts";

/** The object a route's item paths address, as the server returned it at setup. */
export interface Target {
  readonly name: string;
  readonly object: Record<string, unknown>;
  /** The fixture body it was created from. */
  readonly fixture: Record<string, unknown>;
}

type Json = Record<string, unknown>;

const buf = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const q = (path: string, query: string): string =>
  `${path}${path.includes("?") ? "&" : "?"}${query}`;

/** A valid body for a write on `route`: the request would succeed but for the injected fault. */
function baseBody(route: DiscoveredResource, target: Target | undefined, verb: string): Json {
  const name = target?.name ?? targetName;
  switch (route.subresource) {
    case "binding":
      return {
        apiVersion: "v1",
        kind: "Binding",
        metadata: { name },
        target: { apiVersion: "v1", kind: "Node", name: targetName },
      };
    case "eviction":
      return {
        apiVersion: "policy/v1",
        kind: "Eviction",
        metadata: { name, namespace: fuzzNamespace },
      };
    case "scale": {
      const meta = (target?.object["metadata"] ?? {}) as Json;
      return {
        apiVersion: "autoscaling/v1",
        kind: "Scale",
        metadata: { name, namespace: fuzzNamespace, resourceVersion: meta["resourceVersion"] },
        spec: { replicas: 2 },
      };
    }
    default:
      break;
  }
  if (route.resource === "bindings") {
    return {
      apiVersion: "v1",
      kind: "Binding",
      metadata: { name: targetName },
      target: { kind: "Node", name: targetName },
    };
  }
  if (verb === "create") {
    const fixture = target?.fixture ?? {};
    const meta = (fixture["metadata"] ?? {}) as Json;
    const source =
      route.resource === "customresourcedefinitions" ? (target?.object ?? {}) : fixture;
    return {
      ...structuredClone(source),
      apiVersion: route.groupVersion,
      kind: route.kind,
      metadata: {
        ...meta,
        name: route.resource === "customresourcedefinitions" ? name : "fuzz-new",
      },
    };
  }
  return structuredClone(target?.object ?? { metadata: { name } });
}

/** Paths where a wrong-typed value must be rejected: not the part this route ignores. */
function typedPaths(route: DiscoveredResource, body: Json): (string | number)[][] {
  const ignored =
    route.subresource === "status" ? "spec" : route.subresource === "" ? "status" : "";
  // A ControllerRevision's `data` is a RawExtension: any JSON is accepted there, as upstream.
  const rawData = route.resource === "controllerrevisions";
  return pathsOf(body).filter(
    (p) =>
      p[0] !== ignored &&
      !(rawData && p[0] === "data") &&
      !(p[0] === "metadata" && (p[1] === "managedFields" || p[1] === "creationTimestamp")),
  );
}

const optionFaults = [
  "dryRun=Bogus",
  "dryRun=All&dryRun=Nope",
  "fieldValidation=Bogus",
  `fieldManager=${encodeURIComponent("ctl\u0001char")}`,
  `fieldManager=${"m".repeat(200)}`,
];

function bodyFault(
  random: Random,
  route: DiscoveredResource,
  method: string,
  path: string,
  base: Json,
  verb: string,
): BadRequest {
  const at = (what: string, body: Buffer, headers = jsonHeaders, to = path): BadRequest => ({
    what,
    method,
    path: to,
    headers,
    body,
  });
  const faults: (() => BadRequest)[] = [
    () => at("random bytes", notJson(random)),
    () =>
      at("invalid YAML", notYaml(random), { ...jsonHeaders, "content-type": "application/yaml" }),
    () => at("truncated JSON", truncated(random, base)),
    () => at("wrong kind", buf({ ...base, kind: route.kind === "Pod" ? "Secret" : "Pod" })),
    () => at("wrong apiVersion", buf({ ...base, apiVersion: "bogus.example.com/v9" })),
    () => {
      const paths = typedPaths(route, base);
      const p = pick(random, paths);
      const value = p.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], base);
      return at(
        `wrong type at ${p.join(".")}`,
        buf(withValueAt(base, p, wrongTypeFor(random, value))),
      );
    },
    () => at("deeply nested list", Buffer.from(deeplyNested(2000 + random.int(5000), true))),
    () => {
      const deep = JSON.parse(deeplyNested(1500, false)) as unknown;
      return at("deeply nested name", buf(withValueAt(base, ["metadata", "name"], deep)));
    },
    () =>
      at("unsupported content type", buf(base), {
        ...jsonHeaders,
        "content-type": pick(random, unsupportedContentTypes),
      }),
    () => at("bad options", buf(base), jsonHeaders, q(path, pick(random, optionFaults))),
  ];
  if (random.int(40) === 0) faults.push(() => at("oversized body", oversized(random)));
  // A Binding's metadata is not validated upstream (its annotations are copied onto the pod),
  // nor is a SelfSubjectReview's (upstream answers with fresh metadata, whatever was sent).
  if (
    (route.subresource === "" || route.subresource === "status") &&
    route.resource !== "bindings" &&
    route.resource !== "selfsubjectreviews"
  ) {
    faults.push(
      () =>
        at(
          "huge annotation",
          buf(withValueAt(base, ["metadata", "annotations"], { big: "a".repeat(300_000) })),
        ),
      () =>
        at(
          "huge label value",
          buf(withValueAt(base, ["metadata", "labels"], { big: "l".repeat(64) })),
        ),
    );
  }
  if (route.subresource === "binding" || route.resource === "bindings") {
    faults.push(
      () => at("binding without target name", buf({ ...base, target: { kind: "Node" } })),
      () => at("binding to a Pod", buf({ ...base, target: { kind: "Pod", name: targetName } })),
    );
  } else if (route.subresource === "eviction") {
    faults.push(
      () => at("eviction of another name", buf({ ...base, metadata: { name: "other" } })),
      () =>
        at(
          "eviction with bad DeleteOptions",
          buf({ ...base, deleteOptions: { propagationPolicy: "Bogus" } }),
        ),
      () =>
        at("eviction with dryRun Bogus", buf({ ...base, deleteOptions: { dryRun: ["Bogus"] } })),
    );
  } else if (verb === "create") {
    // RBAC names are validated only as path segments (upstream ValidateRBACName), any length;
    // a SelfSubjectReview's metadata is not validated at all (upstream answers with fresh
    // metadata, whatever was sent).
    const rbac = route.groupVersion.startsWith("rbac.authorization.k8s.io/");
    if (route.resource !== "selfsubjectreviews") {
      const names = rbac ? badPathSegments : badNames;
      faults.push(() =>
        at("invalid name", buf(withValueAt(base, ["metadata", "name"], pick(random, names)))),
      );
    }
    if (!rbac && route.resource !== "selfsubjectreviews") {
      faults.push(() =>
        at("huge name", buf(withValueAt(base, ["metadata", "name"], "n".repeat(100_000)))),
      );
    }
    faults.push(() =>
      at(
        "unknown field under Strict",
        buf({ ...base, bogusField: 1 }),
        jsonHeaders,
        q(path, "fieldValidation=Strict"),
      ),
    );
  } else {
    faults.push(
      () =>
        at("stale resourceVersion", buf(withValueAt(base, ["metadata", "resourceVersion"], "1"))),
      () => at("name mismatch", buf(withValueAt(base, ["metadata", "name"], "someone-else"))),
    );
    if (route.subresource === "")
      faults.push(() =>
        at(
          "unknown field under Strict",
          buf({ ...base, bogusField: 1 }),
          jsonHeaders,
          q(path, "fieldValidation=Strict"),
        ),
      );
  }
  return pick(random, faults)();
}

/** A merge patch that sets `path` (descending through objects only) to `value`. */
function patchAt(path: readonly (string | number)[], value: unknown): Json {
  let patch: unknown = value;
  for (const key of [...path].reverse()) patch = { [key]: patch };
  return patch as Json;
}

function patchFault(
  random: Random,
  route: DiscoveredResource,
  path: string,
  base: Json,
): BadRequest {
  const custom = route.groupVersion.startsWith("fuzz.example.com");
  const mergeType =
    custom || route.subresource === "scale"
      ? "application/merge-patch+json"
      : pick(random, ["application/merge-patch+json", "application/strategic-merge-patch+json"]);
  const at = (what: string, body: Buffer, contentType = mergeType, to = path): BadRequest => ({
    what,
    method: "PATCH",
    path: to,
    headers: { "content-type": contentType, accept: "application/json" },
    body,
  });
  const objectPaths = typedPaths(route, base).filter((p) => p.every((k) => typeof k === "string"));
  const faults: (() => BadRequest)[] = [
    () => at("unsupported patch type", buf({}), pick(random, unsupportedContentTypes)),
    () => at("random bytes patch", notJson(random), pick(random, patchTypes.slice(0, 3))),
    () => {
      const p = pick(random, objectPaths);
      const value = p.reduce<unknown>((v, k) => (v as Json)[k as string], base);
      return at(`wrong type patch at ${p.join(".")}`, buf(patchAt(p, wrongTypeFor(random, value))));
    },
    () =>
      at(
        "failing JSON patch",
        buf(
          pick(random, [
            [{ op: "test", path: "/metadata/name", value: "not-the-name" }],
            [{ op: "remove", path: "/no/such/field" }],
            [{ op: "replace", path: "/metadata/nope/deeper", value: 1 }],
            [{ op: "bogus", path: "/metadata" }],
            [{ op: "add", path: "/metadata/labels", value: 5 }],
            { op: "add", path: "/metadata/labels/a", value: "b" },
          ]),
        ),
        "application/json-patch+json",
      ),
    () => at("stale resourceVersion patch", buf({ metadata: { resourceVersion: "1" } })),
    () =>
      at("bad options", buf({}), mergeType, q(path, pick(random, [...optionFaults, "force=true"]))),
    () => at("apply without fieldManager", buf(base), "application/apply-patch+yaml"),
    () =>
      at(
        "invalid YAML apply",
        notYaml(random),
        "application/apply-patch+yaml",
        q(path, "fieldManager=fuzz"),
      ),
    () =>
      at(
        "apply of another kind",
        buf({ ...base, kind: route.kind === "Pod" ? "Secret" : "Pod" }),
        "application/apply-patch+yaml",
        q(path, "fieldManager=fuzz"),
      ),
  ];
  if (random.int(40) === 0) faults.push(() => at("oversized patch", oversized(random)));
  return pick(random, faults)();
}

function deleteFault(random: Random, path: string, collection: boolean): BadRequest {
  const at = (
    what: string,
    body: Buffer | undefined,
    headers = jsonHeaders,
    to = path,
  ): BadRequest => ({
    what,
    method: "DELETE",
    path: to,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const faults: (() => BadRequest)[] = [
    () => at("random bytes DeleteOptions", notJson(random)),
    () => at("DeleteOptions of another kind", buf({ apiVersion: "v1", kind: "Pod" })),
    () =>
      at(
        "DeleteOptions wrong type",
        buf(
          pick(random, [
            { gracePeriodSeconds: "x" },
            { dryRun: "All" },
            { preconditions: 7 },
            { orphanDependents: "yes" },
          ]),
        ),
      ),
    () =>
      at(
        "DeleteOptions bad policy",
        buf({ propagationPolicy: pick(random, ["Bogus", "background", ""]) }),
      ),
    () => at("DeleteOptions dryRun Bogus", buf({ dryRun: ["Bogus"] })),
    () =>
      at(
        "DeleteOptions orphan and policy",
        buf({ orphanDependents: true, propagationPolicy: "Orphan" }),
      ),
    () =>
      at("DeleteOptions wrong content type", buf({}), {
        ...jsonHeaders,
        "content-type": pick(random, unsupportedContentTypes),
      }),
    () =>
      at(
        "bad delete query",
        undefined,
        jsonHeaders,
        q(
          path,
          pick(random, [
            "gracePeriodSeconds=x",
            "dryRun=Bogus",
            "propagationPolicy=Bogus",
            "gracePeriodSeconds=1.5",
            "orphanDependents=true&propagationPolicy=Foreground",
          ]),
        ),
      ),
  ];
  if (collection) {
    faults.push(
      () =>
        at(
          "bad label selector",
          undefined,
          jsonHeaders,
          q(path, `labelSelector=${encodeURIComponent(pick(random, badLabelSelectors))}`),
        ),
      () =>
        at(
          "bad field selector",
          undefined,
          jsonHeaders,
          q(path, `fieldSelector=${encodeURIComponent(pick(random, badFieldSelectors))}`),
        ),
    );
  } else {
    faults.push(
      () => at("stale precondition", buf({ preconditions: { resourceVersion: "1" } })),
      () =>
        at(
          "wrong uid precondition",
          buf({ preconditions: { uid: "00000000-0000-0000-0000-000000000000" } }),
        ),
    );
  }
  if (random.int(40) === 0) faults.push(() => at("oversized DeleteOptions", oversized(random)));
  return pick(random, faults)();
}

/**
 * Bad PodLogOptions on `pods/NAME/log` (which, like upstream's, ignores list parameters such as
 * resourceVersion): a negative tail, a zero limit or window, both windows, or a non-number.
 */
function logFault(random: Random, path: string): BadRequest {
  const query = pick(random, [
    "tailLines=-1",
    "limitBytes=0",
    "sinceSeconds=0",
    "sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z",
    "tailLines=abc",
  ]);
  return {
    what: `bad log options ${query}`,
    method: "GET",
    path: q(path, query),
    headers: jsonHeaders,
  };
}

function readFault(random: Random, path: string, verb: "list" | "watch" | "get"): BadRequest {
  const at = (what: string, query: string): BadRequest => ({
    what,
    method: "GET",
    path: q(verb === "watch" ? q(path, "watch=true") : path, query),
    headers: jsonHeaders,
  });
  const rv = () =>
    at(
      "bad resourceVersion",
      `resourceVersion=${encodeURIComponent(pick(random, ["abc", "-1", "1.5", "1e3", " 7", "0x10"]))}`,
    );
  if (verb === "get") return rv();
  const faults: (() => BadRequest)[] = [
    rv,
    () =>
      at(
        "bad limit",
        `limit=${encodeURIComponent(pick(random, ["abc", "1.5", "", "99999999999999999999", "0x10"]))}`,
      ),
    () => at("bad timeoutSeconds", `timeoutSeconds=${pick(random, ["x", "1.5", "1s", ""])}`),
    () =>
      at(
        "bad label selector",
        `labelSelector=${encodeURIComponent(pick(random, badLabelSelectors))}`,
      ),
    () =>
      at(
        "bad field selector",
        `fieldSelector=${encodeURIComponent(pick(random, badFieldSelectors))}`,
      ),
  ];
  if (verb === "list") {
    faults.push(
      () =>
        at(
          "bad resourceVersionMatch",
          `resourceVersion=1&resourceVersionMatch=${pick(random, ["Bogus", "exact", "Latest"])}`,
        ),
      () => at("resourceVersionMatch without resourceVersion", "resourceVersionMatch=NotOlderThan"),
      () => at("sendInitialEvents on a list", "sendInitialEvents=true"),
      () =>
        at(
          "garbage continue",
          `continue=${encodeURIComponent(notJson(random).toString("base64"))}`,
        ),
    );
  } else {
    faults.push(() =>
      at(
        "resourceVersionMatch on a watch",
        `resourceVersionMatch=${pick(random, ["NotOlderThan", "Exact"])}`,
      ),
    );
  }
  return pick(random, faults)();
}

const methodOfVerb: Readonly<Record<string, string>> = {
  get: "GET",
  list: "GET",
  watch: "GET",
  create: "POST",
  update: "PUT",
  patch: "PATCH",
  delete: "DELETE",
  deletecollection: "DELETE",
};

/** A method the path does not serve: 405, or 404 on an item path of a create-only resource. */
function wrongMethod(random: Random, route: DiscoveredResource): BadRequest {
  const onCollection = route.subresource === "" && random.int(2) === 0;
  const served = new Set(
    route.verbs
      .filter((v) =>
        route.subresource !== ""
          ? true
          : onCollection
            ? ["list", "watch", "create", "deletecollection"].includes(v)
            : ["get", "update", "patch", "delete", "watch"].includes(v),
      )
      .map((v) => methodOfVerb[v] ?? ""),
  );
  const candidates = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"].filter(
    (m) => !served.has(m),
  );
  const method = pick(random, candidates);
  return {
    what: `wrong method ${method}`,
    method,
    path: onCollection ? collectionPath(route) : itemPath(route),
    headers: jsonHeaders,
    ...(method === "GET" || method === "OPTIONS" || method === "TRACE" ? {} : { body: buf({}) }),
  };
}

/** One bad request for `route`. */
export function garbageFor(
  random: Random,
  route: DiscoveredResource,
  target: Target | undefined,
): BadRequest {
  if (random.int(10) === 0) return wrongMethod(random, route);
  const verb = pick(random, route.verbs);
  const item = itemPath(route, target?.name ?? targetName);
  const collection = collectionPath(route);
  switch (verb) {
    case "list":
      return readFault(random, collection, "list");
    case "watch":
      return readFault(
        random,
        route.subresource === "" && random.int(3) === 0 ? item : collection,
        "watch",
      );
    case "get":
      return route.subresource === "log" ? logFault(random, item) : readFault(random, item, "get");
    case "create": {
      const path = route.subresource === "" ? collection : item;
      return bodyFault(random, route, "POST", path, baseBody(route, target, verb), verb);
    }
    case "update":
      return bodyFault(random, route, "PUT", item, baseBody(route, target, verb), verb);
    case "patch":
      return patchFault(random, route, item, baseBody(route, target, verb));
    case "delete":
      return deleteFault(random, item, false);
    case "deletecollection":
      return deleteFault(random, collection, true);
    default:
      return wrongMethod(random, route);
  }
}
