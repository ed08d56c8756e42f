import { tooLarge } from "../../api/index.ts";
import type { Json, JsonObject } from "../../util/index.ts";
import { malformedPatch, patchDoesNotApply } from "./internal/errors.ts";
import { goQuote, jsonKindName } from "./internal/go-format.ts";
import {
  cloneJson,
  cloneObject,
  hasKey,
  isJsonObject,
  jsonEqual,
  setKey,
} from "./internal/json-values.ts";

/**
 * RFC 6902 JSON patch, with the behaviour and messages of the library the API server uses
 * (`gopkg.in/evanphx/json-patch.v4`) and of its PATCH handler:
 *
 * - A body that does not decode as a list of operation objects is 400 BadRequest
 *   (`json: cannot unmarshal object into Go value of type jsonpatch.Patch`). A `null` body is
 *   an empty patch.
 * - More than 10000 operations is 413.
 * - Everything else is decided while applying, operation by operation; a failure is 422
 *   Invalid with the library's message, e.g.
 *   `replace operation does not apply: doc is missing key: /data/nope: missing value`.
 *   That includes a missing or unknown `op` (`Unexpected kind: unknown`) and a path that is
 *   not a JSON pointer (`add operation does not apply: doc is missing path: "x": missing value`).
 * - Library quirks kept: negative array indices count from the end, array indices may have
 *   leading zeros or a `+`, a missing `value` means `null`, `replace` of the whole document
 *   (path `""`) with a scalar is a no-op.
 *
 * Pure: `doc` and `patch` are not mutated; the result shares no structure with either.
 */
export function applyJsonPatch(doc: JsonObject, patch: unknown): JsonObject {
  const operations = decodePatch(patch);
  if (operations.length > maxOperations) {
    throw tooLarge(
      `Request entity too large: The allowed maximum operations in a JSON patch is ${maxOperations}, got ${operations.length}`,
    );
  }
  const state: DocumentState = { root: cloneObject(doc) };
  for (const operation of operations) {
    const failure = applyOperation(state, operation);
    if (failure !== undefined) throw patchDoesNotApply(failure);
  }
  if (!isJsonObject(state.root)) {
    // The library would hand back an array; decoding it into an object then fails.
    throw patchDoesNotApply(
      "replace operation does not apply: the document must stay a JSON object",
    );
  }
  return state.root;
}

/** Upstream's `maxJSONPatchOperations`. */
const maxOperations = 10000;

type Container = JsonObject | Json[];
interface DocumentState {
  root: Json;
}
/** One operation as decoded: `null` list elements are operations with no fields. */
type Operation = JsonObject;

function decodePatch(patch: unknown): Operation[] {
  if (patch === null || patch === undefined) return [];
  if (!Array.isArray(patch)) {
    throw malformedPatch(
      `json: cannot unmarshal ${jsonKindName(patch as Json)} into Go value of type jsonpatch.Patch`,
    );
  }
  const operations: Operation[] = [];
  for (const item of patch as unknown[]) {
    if (item === null) {
      operations.push({});
      continue;
    }
    if (!isJsonObject(item)) {
      throw malformedPatch(
        `json: cannot unmarshal ${jsonKindName(item as Json)} into Go value of type jsonpatch.Operation`,
      );
    }
    operations.push(item);
  }
  return operations;
}

/** Applies one operation; returns the failure message, or `undefined` on success. */
function applyOperation(state: DocumentState, op: Operation): string | undefined {
  const kind = typeof op["op"] === "string" ? op["op"] : "unknown";
  switch (kind) {
    case "add":
      return add(state, op);
    case "remove":
      return remove(state, op);
    case "replace":
      return replace(state, op);
    case "move":
      return move(state, op);
    case "test":
      return test(state, op);
    case "copy":
      return copy(state, op);
    default:
      return `Unexpected kind: ${kind}`;
  }
}

function add(state: DocumentState, op: Operation): string | undefined {
  const path = readPointer(op, "path");
  if (typeof path !== "string") return "add operation failed to decode path: missing value";
  const target = findContainer(state.root, path);
  if (target === undefined) {
    return `add operation does not apply: doc is missing path: "${path}": missing value`;
  }
  const failure = addAt(target.container, target.key, operationValue(op));
  return failure === undefined ? undefined : `error in add for path: '${path}': ${failure}`;
}

function remove(state: DocumentState, op: Operation): string | undefined {
  const path = readPointer(op, "path");
  if (typeof path !== "string") return "remove operation failed to decode path: missing value";
  const target = findContainer(state.root, path);
  if (target === undefined) {
    return `remove operation does not apply: doc is missing path: "${path}": missing value`;
  }
  const failure = removeAt(target.container, target.key);
  return failure === undefined ? undefined : `error in remove for path: '${path}': ${failure}`;
}

function replace(state: DocumentState, op: Operation): string | undefined {
  const path = readPointer(op, "path");
  if (typeof path !== "string") return `replace operation failed to decode path: ${path.error}`;
  if (path === "") {
    const value = operationValue(op);
    // Objects and arrays replace the document; anything else is silently ignored upstream.
    if (isJsonObject(value) || Array.isArray(value)) state.root = value;
    return undefined;
  }
  const target = findContainer(state.root, path);
  if (target === undefined) {
    return `replace operation does not apply: doc is missing path: ${path}: missing value`;
  }
  if (!isValue(getAt(target.container, target.key))) {
    return `replace operation does not apply: doc is missing key: ${path}: missing value`;
  }
  const failure = setAt(target.container, target.key, operationValue(op));
  return failure === undefined ? undefined : `error in remove for path: '${path}': ${failure}`;
}

function move(state: DocumentState, op: Operation): string | undefined {
  const from = readPointer(op, "from");
  if (typeof from !== "string") return `move operation failed to decode from: ${from.error}`;
  const source = findContainer(state.root, from);
  if (source === undefined) {
    return `move operation does not apply: doc is missing from path: ${from}: missing value`;
  }
  const value = getAt(source.container, source.key);
  if (!isValue(value)) return `error in move for path: '${source.key}': ${value.error}`;
  const removed = removeAt(source.container, source.key);
  if (removed !== undefined) return `error in move for path: '${source.key}': ${removed}`;
  const path = readPointer(op, "path");
  if (typeof path !== "string") return `move operation failed to decode path: ${path.error}`;
  const target = findContainer(state.root, path);
  if (target === undefined) {
    return `move operation does not apply: doc is missing destination path: ${path}: missing value`;
  }
  const failure = addAt(target.container, target.key, value.value);
  return failure === undefined ? undefined : `error in move for path: '${path}': ${failure}`;
}

function test(state: DocumentState, op: Operation): string | undefined {
  const path = readPointer(op, "path");
  if (typeof path !== "string") return `test operation failed to decode path: ${path.error}`;
  const expected = hasKey(op, "value") ? (op["value"] ?? null) : undefined;
  if (path === "") {
    if (expected !== undefined && jsonEqual(state.root, expected)) return undefined;
    return `testing value ${path} failed: test failed`;
  }
  const target = findContainer(state.root, path);
  if (target === undefined) {
    return `test operation does not apply: is missing path: ${path}: missing value`;
  }
  const actual = getAt(target.container, target.key);
  if (!isValue(actual)) return `error in test for path: '${path}': ${actual.error}`;
  if (actual.value === null) {
    return expected === undefined || expected === null
      ? undefined
      : `testing value ${path} failed: test failed`;
  }
  if (expected !== undefined && jsonEqual(actual.value, expected)) return undefined;
  return `testing value ${path} failed: test failed`;
}

function copy(state: DocumentState, op: Operation): string | undefined {
  const from = readPointer(op, "from");
  if (typeof from !== "string") return `copy operation failed to decode from: ${from.error}`;
  const source = findContainer(state.root, from);
  if (source === undefined) {
    return `copy operation does not apply: doc is missing from path: ${from}: missing value`;
  }
  const value = getAt(source.container, source.key);
  if (!isValue(value)) return `error in copy for from: '${from}': ${value.error}`;
  const path = readPointer(op, "path");
  if (typeof path !== "string") return "copy operation failed to decode path: missing value";
  const target = findContainer(state.root, path);
  if (target === undefined) {
    return `copy operation does not apply: doc is missing destination path: ${path}: missing value`;
  }
  const failure = addAt(target.container, target.key, cloneJson(value.value));
  return failure === undefined ? undefined : `error while adding value during copy: ${failure}`;
}

/** The operation's `value`, copied; a missing `value` is `null`, as upstream. */
function operationValue(op: Operation): Json {
  return hasKey(op, "value") ? cloneJson(op["value"] ?? null) : null;
}

/** The string in `path`/`from`, or why it could not be read (the library's wording). */
function readPointer(op: Operation, field: "path" | "from"): string | { error: string } {
  const raw = hasKey(op, field) ? op[field] : undefined;
  if (raw === undefined || raw === null) {
    return {
      error:
        field === "path"
          ? "operation missing path field: missing value"
          : "operation, missing from field: missing value",
    };
  }
  if (typeof raw !== "string") {
    return { error: `json: cannot unmarshal ${jsonKindName(raw)} into Go value of type string` };
  }
  return raw;
}

/**
 * The container holding the last segment of `path`, and that segment decoded. `undefined`
 * when the pointer has no segment (`""`, `"x"`) or a parent is missing or not a container.
 */
function findContainer(
  root: Json,
  path: string,
): { container: Container; key: string } | undefined {
  const segments = path.split("/");
  if (segments.length < 2 || !isContainer(root)) return undefined;
  let current: Container = root;
  for (const segment of segments.slice(1, -1)) {
    const next = getAt(current, decodeSegment(segment));
    if (!isValue(next) || !isContainer(next.value)) return undefined;
    current = next.value;
  }
  return { container: current, key: decodeSegment(segments[segments.length - 1] ?? "") };
}

/** RFC 6901 unescaping: `~1` is `/`, then `~0` is `~`. */
function decodeSegment(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

function isContainer(value: Json): value is Container {
  return Array.isArray(value) || isJsonObject(value);
}

type Lookup = { value: Json } | { error: string };

function isValue(lookup: Lookup): lookup is { value: Json } {
  return "value" in lookup;
}

function getAt(container: Container, key: string): Lookup {
  if (!Array.isArray(container)) {
    if (!hasKey(container, key)) {
      return { error: `unable to get nonexistent key: ${key}: missing value` };
    }
    return { value: container[key] ?? null };
  }
  const parsed = parseIndex(key);
  if (typeof parsed !== "number") return parsed;
  let index = parsed;
  if (index < 0) {
    if (index < -container.length) return { error: invalidIndex(index) };
    index += container.length;
  }
  if (index >= container.length) return { error: invalidIndex(index) };
  return { value: container[index] ?? null };
}

/** Replaces an existing member (`getAt` has already succeeded). */
function setAt(container: Container, key: string, value: Json): string | undefined {
  if (!Array.isArray(container)) {
    setKey(container, key, value);
    return undefined;
  }
  const parsed = parseIndex(key);
  if (typeof parsed !== "number") return parsed.error;
  let index = parsed;
  if (index < 0) {
    if (index < -container.length) return invalidIndex(index);
    index += container.length;
  }
  container[index] = value;
  return undefined;
}

function addAt(container: Container, key: string, value: Json): string | undefined {
  if (!Array.isArray(container)) {
    setKey(container, key, value);
    return undefined;
  }
  if (key === "-") {
    container.push(value);
    return undefined;
  }
  const parsed = parseIndex(key);
  if (typeof parsed !== "number") {
    return `value was not a proper array index: '${key}': ${parsed.error}`;
  }
  let index = parsed;
  const size = container.length + 1;
  if (index >= size) return invalidIndex(index);
  if (index < 0) {
    if (index < -size) return invalidIndex(index);
    index += size;
  }
  container.splice(index, 0, value);
  return undefined;
}

function removeAt(container: Container, key: string): string | undefined {
  if (!Array.isArray(container)) {
    if (!hasKey(container, key)) return `Unable to remove nonexistent key: ${key}: missing value`;
    delete container[key];
    return undefined;
  }
  const parsed = parseIndex(key);
  if (typeof parsed !== "number") return parsed.error;
  let index = parsed;
  if (index >= container.length) return invalidIndex(index);
  if (index < 0) {
    if (index < -container.length) return invalidIndex(index);
    index += container.length;
  }
  container.splice(index, 1);
  return undefined;
}

function invalidIndex(index: number): string {
  return `Unable to access invalid index: ${index}: invalid index referenced`;
}

/** Go's `strconv.Atoi`: optional sign, decimal digits, within int64. */
function parseIndex(key: string): number | { error: string } {
  if (!/^[+-]?\d+$/.test(key)) {
    return { error: `strconv.Atoi: parsing ${goQuote(key)}: invalid syntax` };
  }
  const value = BigInt(key);
  if (value > 2n ** 63n - 1n || value < -(2n ** 63n)) {
    return { error: `strconv.Atoi: parsing ${goQuote(key)}: value out of range` };
  }
  return Number(value);
}
