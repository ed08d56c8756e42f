/**
 * Kueue's role hash (pkg/controller/jobs/pod, `getRoleHash`): the PodSet name of a pod in a
 * group. A JSON document `{"spec": SHAPE}` holding only the scheduling-relevant parts of the pod
 * spec, encoded exactly as Go's `encoding/json` encodes the Kubernetes types (map keys sorted,
 * struct fields in declaration order, `omitempty` honoured, absent values `null`, quantities
 * canonical, `<`, `>`, `&` escaped), hashed with SHA-256; the first 8 hex characters.
 */
import { createHash } from "node:crypto";
import { canonicalQuantity, type PodSpec } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** A Go JSON value under construction: fields in order; `undefined` fields are omitted. */
type GoValue = null | string | number | boolean | GoValue[] | GoStruct | GoMap;
/** A struct: its fields in declaration order (`omitempty` fields already dropped when empty). */
class GoStruct {
  readonly fields: [string, GoValue][] = [];
  /** Adds a field; with `omitEmpty`, skips Go's zero values (and empty lists and maps). */
  add(name: string, value: GoValue | undefined, omitEmpty = false): this {
    if (value === undefined) {
      if (!omitEmpty) this.fields.push([name, null]);
      return this;
    }
    if (omitEmpty && isEmpty(value)) return this;
    this.fields.push([name, value]);
    return this;
  }
}
/** A map: keys sorted when encoded. */
class GoMap {
  readonly entries: Map<string, GoValue>;
  constructor(entries: Iterable<[string, GoValue]>) {
    this.entries = new Map(entries);
  }
}

function isEmpty(value: GoValue): boolean {
  if (value === null || value === "" || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (value instanceof GoMap) return value.entries.size === 0;
  return false;
}

/** Printable ASCII but `"`, `&`, `<`, `>` and the backslash: written as is by Go and by JSON. */
const plainString = /^[\x20\x21\x23-\x25\x27-\x3b\x3d\x3f-\x5b\x5d-\x7e]*$/;

function encodeString(text: string): string {
  if (plainString.test(text)) return `"${text}"`;
  return JSON.stringify(text).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Struct field names, encoded once (a fixed set: the names of the Kubernetes types' fields). */
const fieldNames = new Map<string, string>();

function encodeFieldName(name: string): string {
  let encoded = fieldNames.get(name);
  if (encoded === undefined) {
    encoded = `${encodeString(name)}:`;
    fieldNames.set(name, encoded);
  }
  return encoded;
}

function encode(value: GoValue): string {
  if (value === null) return "null";
  if (typeof value === "string") return encodeString(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  let out: string;
  if (Array.isArray(value)) {
    out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      out += encode(value[i] as GoValue);
    }
    return `${out}]`;
  }
  out = "{";
  if (value instanceof GoStruct) {
    const fields = value.fields;
    for (let i = 0; i < fields.length; i++) {
      const [k, v] = fields[i] as [string, GoValue];
      if (i > 0) out += ",";
      out += encodeFieldName(k) + encode(v);
    }
    return `${out}}`;
  }
  const keys = [...value.entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    if (i > 0) out += ",";
    out += `${encodeString(k)}:${encode(value.entries.get(k) ?? null)}`;
  }
  return `${out}}`;
}

type Maybe<T> = DeepReadonly<T> | undefined | null;

/** A Go slice: `null` when absent (nil); `[]` only when present and empty. */
function list<T>(
  items: readonly T[] | undefined | null,
  each: (item: T) => GoValue,
): GoValue | undefined {
  return items === undefined || items === null ? undefined : items.map(each);
}

function stringMap(map: Maybe<Record<string, string>>): GoValue | undefined {
  return map === undefined || map === null ? undefined : new GoMap(Object.entries(map));
}

function strings(items: readonly string[] | undefined | null): GoValue | undefined {
  return list(items, (s) => s);
}

function quantities(map: Maybe<Record<string, string | number>>): GoValue | undefined {
  if (map === undefined || map === null) return undefined;
  return new GoMap(Object.entries(map).map(([k, v]) => [k, canonicalQuantity(v)]));
}

interface SelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

function requirement(r: DeepReadonly<SelectorRequirement>): GoValue {
  return new GoStruct()
    .add("key", r.key)
    .add("operator", r.operator)
    .add("values", strings(r.values), true);
}

function labelSelector(
  s: Maybe<{ matchLabels?: Record<string, string>; matchExpressions?: SelectorRequirement[] }>,
): GoValue | undefined {
  if (s === undefined || s === null) return undefined;
  return new GoStruct()
    .add("matchLabels", stringMap(s.matchLabels), true)
    .add("matchExpressions", list(s.matchExpressions, requirement), true);
}

type Spec = DeepReadonly<PodSpec>;
type Affinity = NonNullable<Spec["affinity"]>;
type NodeSelectorTerm = DeepReadonly<{
  matchExpressions?: SelectorRequirement[];
  matchFields?: SelectorRequirement[];
}>;

function nodeSelectorTerm(t: NodeSelectorTerm): GoValue {
  return new GoStruct()
    .add("matchExpressions", list(t.matchExpressions, requirement), true)
    .add("matchFields", list(t.matchFields, requirement), true);
}

function podAffinityTerm(t: DeepReadonly<Record<string, unknown>>): GoValue {
  const term = t as DeepReadonly<{
    labelSelector?: Parameters<typeof labelSelector>[0];
    namespaces?: string[];
    topologyKey: string;
    namespaceSelector?: Parameters<typeof labelSelector>[0];
    matchLabelKeys?: string[];
    mismatchLabelKeys?: string[];
  }>;
  return new GoStruct()
    .add("labelSelector", labelSelector(term.labelSelector), true)
    .add("namespaces", strings(term.namespaces), true)
    .add("topologyKey", term.topologyKey ?? "")
    .add("namespaceSelector", labelSelector(term.namespaceSelector), true)
    .add("matchLabelKeys", strings(term.matchLabelKeys), true)
    .add("mismatchLabelKeys", strings(term.mismatchLabelKeys), true);
}

function podAffinity(a: unknown): GoValue | undefined {
  if (a === undefined || a === null) return undefined;
  const p = a as DeepReadonly<{
    requiredDuringSchedulingIgnoredDuringExecution?: Record<string, unknown>[];
    preferredDuringSchedulingIgnoredDuringExecution?: {
      weight: number;
      podAffinityTerm: Record<string, unknown>;
    }[];
  }>;
  return new GoStruct()
    .add(
      "requiredDuringSchedulingIgnoredDuringExecution",
      list(p.requiredDuringSchedulingIgnoredDuringExecution, podAffinityTerm),
      true,
    )
    .add(
      "preferredDuringSchedulingIgnoredDuringExecution",
      list(p.preferredDuringSchedulingIgnoredDuringExecution, (w) =>
        new GoStruct()
          .add("weight", w.weight)
          .add("podAffinityTerm", podAffinityTerm(w.podAffinityTerm)),
      ),
      true,
    );
}

function affinity(a: Maybe<Affinity>): GoValue | undefined {
  if (a === undefined || a === null) return undefined;
  const node = a.nodeAffinity;
  const nodeValue =
    node === undefined
      ? undefined
      : new GoStruct()
          .add(
            "requiredDuringSchedulingIgnoredDuringExecution",
            node.requiredDuringSchedulingIgnoredDuringExecution === undefined
              ? undefined
              : new GoStruct().add(
                  "nodeSelectorTerms",
                  list(
                    node.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
                    nodeSelectorTerm,
                  ),
                ),
            true,
          )
          .add(
            "preferredDuringSchedulingIgnoredDuringExecution",
            list(node.preferredDuringSchedulingIgnoredDuringExecution, (p) =>
              new GoStruct()
                .add("weight", p.weight)
                .add("preference", nodeSelectorTerm(p.preference)),
            ),
            true,
          );
  return new GoStruct()
    .add("nodeAffinity", nodeValue, true)
    .add("podAffinity", podAffinity(a.podAffinity), true)
    .add("podAntiAffinity", podAffinity(a.podAntiAffinity), true);
}

type Container = NonNullable<Spec["containers"]>[number];

function container(c: Container): GoValue {
  const ports = list(c.ports, (p) =>
    new GoStruct()
      .add("name", p.name, true)
      .add("hostPort", p.hostPort, true)
      .add("containerPort", p.containerPort)
      .add("protocol", p.protocol, true)
      .add("hostIP", p.hostIP, true),
  );
  return new GoMap([
    ["ports", ports ?? null],
    ["resources", new GoMap([["requests", quantities(c.resources?.requests) ?? null]])],
  ]);
}

function toleration(t: NonNullable<Spec["tolerations"]>[number]): GoValue {
  return new GoStruct()
    .add("key", t.key, true)
    .add("operator", t.operator, true)
    .add("value", t.value, true)
    .add("effect", t.effect, true)
    .add("tolerationSeconds", t.tolerationSeconds ?? undefined, true);
}

function spreadConstraint(t: NonNullable<Spec["topologySpreadConstraints"]>[number]): GoValue {
  return new GoStruct()
    .add("maxSkew", t.maxSkew)
    .add("topologyKey", t.topologyKey)
    .add("whenUnsatisfiable", t.whenUnsatisfiable)
    .add("labelSelector", labelSelector(t.labelSelector), true)
    .add("minDomains", t.minDomains ?? undefined, true)
    .add("nodeAffinityPolicy", t.nodeAffinityPolicy, true)
    .add("nodeTaintsPolicy", t.nodeTaintsPolicy, true)
    .add("matchLabelKeys", strings(t.matchLabelKeys), true);
}

function resourceClaim(c: DeepReadonly<Record<string, unknown>>): GoValue {
  const claim = c as DeepReadonly<{
    name: string;
    resourceClaimName?: string;
    resourceClaimTemplateName?: string;
  }>;
  return new GoStruct()
    .add("name", claim.name)
    .add("resourceClaimName", claim.resourceClaimName, true)
    .add("resourceClaimTemplateName", claim.resourceClaimTemplateName, true);
}

/** The exact JSON document Kueue hashes for a pod spec. */
export function roleHashDocument(spec: DeepReadonly<PodSpec>): string {
  const claims = (spec as DeepReadonly<{ resourceClaims?: Record<string, unknown>[] }>)
    .resourceClaims;
  const shape = new GoMap([
    ["affinity", affinity(spec.affinity) ?? null],
    ["containers", list(spec.containers?.length ? spec.containers : undefined, container) ?? null],
    [
      "initContainers",
      list(spec.initContainers?.length ? spec.initContainers : undefined, container) ?? null,
    ],
    ["nodeSelector", stringMap(spec.nodeSelector) ?? null],
    ["overhead", quantities(spec.overhead) ?? null],
    ["priority", spec.priority ?? null],
    ["resourceClaims", list(claims, resourceClaim) ?? null],
    ["runtimeClassName", spec.runtimeClassName ?? null],
    ["tolerations", list(spec.tolerations, toleration) ?? null],
    ["topologySpreadConstraints", list(spec.topologySpreadConstraints, spreadConstraint) ?? null],
  ]);
  return encode(new GoMap([["spec", shape]]));
}

/** Kueue's role hash of a pod spec: 8 lowercase hex characters. */
export function roleHash(spec: DeepReadonly<PodSpec>): string {
  return createHash("sha256").update(roleHashDocument(spec)).digest("hex").slice(0, 8);
}
