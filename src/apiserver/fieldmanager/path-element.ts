import { errorMessage, isPlainObject, type Json } from "../../util/index.ts";

/**
 * One step of a field path, as structured-merge-diff models it: a field (or map key) name, the
 * key fields of a list-map item, the value of a set item, or the index of an atomic-list item.
 * Key fields are always sorted by name.
 */
export type PathElement =
  | { readonly kind: "field"; readonly name: string }
  | { readonly kind: "key"; readonly fields: readonly KeyField[] }
  | { readonly kind: "value"; readonly value: Json }
  | { readonly kind: "index"; readonly index: number };

/** One key field of a list-map item: `["name", "nginx"]`. */
export type KeyField = readonly [name: string, value: Json];

/** A path from the root of an object to one field or item. */
export type Path = readonly PathElement[];

/** A field (or map key) step. */
export function field(name: string): PathElement {
  return { kind: "field", name };
}

/** A list-map item step; the key fields are sorted by name as upstream sorts them. */
export function key(fields: Readonly<Record<string, Json>>): PathElement {
  const sorted = Object.entries(fields).sort(([a], [b]) => compareStrings(a, b));
  return { kind: "key", fields: sorted };
}

/** A set item step. */
export function value(v: Json): PathElement {
  return { kind: "value", value: v };
}

/** An atomic-list item step. */
export function index(i: number): PathElement {
  return { kind: "index", index: i };
}

const kindOrder = { field: 0, key: 1, value: 2, index: 3 } as const;

/** Upstream's total order: fields, then keys, then values, then indexes. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindOrder[a.kind] - kindOrder[b.kind];
  switch (a.kind) {
    case "field":
      return compareStrings(a.name, (b as typeof a).name);
    case "key":
      return compareKeyFields(a.fields, (b as typeof a).fields);
    case "value":
      return compareValues(a.value, (b as typeof a).value);
    case "index":
      return Math.sign(a.index - (b as typeof a).index);
  }
}

export function pathElementsEqual(a: PathElement, b: PathElement): boolean {
  return comparePathElements(a, b) === 0;
}

function compareKeyFields(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; ; i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return y === undefined ? 0 : -1;
    if (y === undefined) return 1;
    const byName = compareStrings(x[0], y[0]);
    if (byName !== 0) return byName;
    const byValue = compareValues(x[1], y[1]);
    if (byValue !== 0) return byValue;
  }
}

/** Compares strings by code point, which is the byte order of their UTF-8 encoding (Go's order). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** A value's place in structured-merge-diff's order of kinds. */
function valueRank(v: Json): number {
  if (typeof v === "number") return 0;
  if (typeof v === "string") return 2;
  if (typeof v === "boolean") return 3;
  if (Array.isArray(v)) return 4;
  if (v === null) return 6;
  return 5;
}

/** structured-merge-diff's value order: floats, ints, strings, booleans, lists, maps, null. */
export function compareValues(a: Json, b: Json): number {
  const ra = valueRank(a);
  const rb = valueRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === "number" && typeof b === "number") {
    if (a !== b) return a < b ? -1 : 1;
    // Equal numerically: a float sorts before an int of the same value.
    return Number(Number.isInteger(b)) - Number(Number.isInteger(a));
  }
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; ; i++) {
      const x = a[i];
      const y = b[i];
      if (x === undefined) return y === undefined ? 0 : -1;
      if (y === undefined) return 1;
      const c = compareValues(x, y);
      if (c !== 0) return c;
    }
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).sort(compareStrings);
    const kb = Object.keys(b).sort(compareStrings);
    for (let i = 0; ; i++) {
      const x = ka[i];
      const y = kb[i];
      if (x === undefined) return y === undefined ? 0 : -1;
      if (y === undefined) return 1;
      const byKey = compareStrings(x, y);
      if (byKey !== 0) return byKey;
      const byValue = compareValues(a[x] as Json, b[y] as Json);
      if (byValue !== 0) return byValue;
    }
  }
  return 0;
}

/** The characters Go's encoder escapes inside strings (no `g` flag: `test` keeps no state). */
const goEscaped = /[<>&\u2028\u2029]/;

/** JSON as Go's encoding/json writes it: map keys sorted, `<`, `>`, `&`, U+2028/9 escaped. */
export function goJson(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(goJson).join(",")}]`;
  if (isPlainObject(v)) {
    const keys = Object.keys(v).sort(compareStrings);
    return `{${keys.map((k) => `${goJson(k)}:${goJson(v[k] as Json)}`).join(",")}}`;
  }
  const text = JSON.stringify(v);
  // Most keys and values need no HTML escaping: skip the replace (and its callback) for them.
  if (typeof v !== "string" || !goEscaped.test(text)) return text;
  return text.replace(/[<>&\u2028\u2029]/g, (c) => {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/** The FieldsV1 key of a path element: `f:name`, `k:{"name":"nginx"}`, `v:"x"`, `i:0`. */
export function serializePathElement(pe: PathElement): string {
  switch (pe.kind) {
    case "field":
      return `f:${pe.name}`;
    case "key":
      return `k:{${pe.fields.map(([n, v]) => `${goJson(n)}:${goJson(v)}`).join(",")}}`;
    case "value":
      return `v:${goJson(pe.value)}`;
    case "index":
      return `i:${pe.index}`;
  }
}

/**
 * Parses a FieldsV1 key. Returns `undefined` for an unknown element type (upstream drops those so
 * that a future format can add some); throws `SyntaxError` for a malformed key.
 */
export function deserializePathElement(text: string): PathElement | undefined {
  if (text.length < 2) throw new SyntaxError("key must be 2 characters long:");
  if (text[1] !== ":") throw new SyntaxError(`missing colon: ${text}`);
  const rest = text.slice(2);
  switch (text[0]) {
    case "f":
      return field(rest);
    case "v":
      return value(parseJson(rest));
    case "k": {
      const parsed = parseJson(rest);
      if (!isPlainObject(parsed)) throw new SyntaxError(`key element is not an object: ${text}`);
      return key(parsed as Record<string, Json>);
    }
    case "i": {
      if (!/^[+-]?\d+$/.test(rest)) {
        throw new SyntaxError(`strconv.Atoi: parsing ${JSON.stringify(rest)}: invalid syntax`);
      }
      return index(Number(rest));
    }
    default:
      return undefined;
  }
}

function parseJson(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (error: unknown) {
    throw new SyntaxError(errorMessage(error));
  }
}

/** How upstream prints a path element in messages: `.image`, `[name="nginx"]`, `[="x"]`, `[0]`. */
export function formatPathElement(pe: PathElement): string {
  switch (pe.kind) {
    case "field":
      return `.${pe.name}`;
    case "key":
      return `[${pe.fields.map(([n, v]) => `${n}=${goValueString(v)}`).join(",")}]`;
    case "value":
      return `[=${goValueString(pe.value)}]`;
    case "index":
      return `[${pe.index}]`;
  }
}

/** How upstream prints a path: `.spec.containers[name="nginx"].image`. */
export function formatPath(path: Path): string {
  return path.map(formatPathElement).join("");
}

/** structured-merge-diff's `value.ToString`: strings quoted as Go's `%q`, numbers bare. */
function goValueString(v: Json): string {
  if (v === null) return "null";
  if (typeof v === "string") return goQuote(v);
  if (typeof v === "number") return goNumber(v);
  if (typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(goValueString).join(",")}]`;
  return Object.entries(v)
    .map(([k, x]) => `${k}=${goValueString(x)}`)
    .join("");
}

function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  return String(n).replace(/e([+-])(\d)$/, "e$10$2");
}

const namedEscapes: Readonly<Record<string, string>> = {
  "\u0007": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
  '"': '\\"',
  "\\": "\\\\",
};

/** Go's `strconv.Quote`: printable characters kept, control characters escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const named = namedEscapes[ch];
    if (named !== undefined) {
      out += named;
      continue;
    }
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (cp >= 0x80 && cp < 0xa0) out += `\\u${cp.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}
