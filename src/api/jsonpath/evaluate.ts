import {
  type Filter,
  type FilterOperand,
  type JsonPath,
  parseJsonPath,
  type Step,
} from "./parse.ts";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Map keys in sorted order, the order Go's reflection-based walk visits them. */
function sortedValues(value: Record<string, unknown>): unknown[] {
  return Object.keys(value)
    .sort()
    .map((k) => value[k]);
}

function children(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isRecord(value)) return sortedValues(value);
  return [];
}

/** The value and every value nested in it, depth first (`..`). */
function descendants(value: unknown, out: unknown[]): void {
  out.push(value);
  for (const child of children(value)) descendants(child, out);
}

function normalizeIndex(index: number, length: number): number {
  return index < 0 ? index + length : index;
}

function sliceOf(
  list: readonly unknown[],
  step: { start?: number; end?: number; step?: number },
): unknown[] {
  const by = step.step ?? 1;
  if (by <= 0) return [];
  const clamp = (i: number): number =>
    Math.min(Math.max(normalizeIndex(i, list.length), 0), list.length);
  const start = clamp(step.start ?? 0);
  const end = clamp(step.end ?? list.length);
  const out: unknown[] = [];
  for (let i = start; i < end; i += by) out.push(list[i]);
  return out;
}

function operandValues(operand: FilterOperand, current: unknown): unknown[] {
  if (operand.kind === "literal") return [operand.value];
  return applySteps(operand.steps, [current]);
}

function compare(op: NonNullable<Filter["op"]>, a: unknown, b: unknown): boolean {
  switch (op) {
    case "==":
      return a === b;
    case "!=":
      return a !== b;
    default: {
      const comparable =
        (typeof a === "number" && typeof b === "number") ||
        (typeof a === "string" && typeof b === "string");
      if (!comparable) return false;
      const x = a as number | string;
      const y = b as number | string;
      if (op === "<") return x < y;
      if (op === ">") return x > y;
      if (op === "<=") return x <= y;
      return x >= y;
    }
  }
}

function filterHolds(filter: Filter, current: unknown): boolean {
  const left = operandValues(filter.left, current);
  if (filter.op === undefined || filter.right === undefined) {
    return left.some((v) => v !== undefined && v !== null && v !== false);
  }
  const right = operandValues(filter.right, current);
  const { op } = filter;
  return left.some((a) => right.some((b) => compare(op, a, b)));
}

function applyStep(step: Step, values: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const value of values) {
    switch (step.kind) {
      case "field":
        if (isRecord(value)) {
          for (const name of step.names) {
            if (Object.hasOwn(value, name)) out.push(value[name]);
          }
        }
        break;
      case "wildcard":
        out.push(...children(value));
        break;
      case "recursive":
        descendants(value, out);
        break;
      case "index":
        if (Array.isArray(value)) {
          const i = normalizeIndex(step.index, value.length);
          if (i >= 0 && i < value.length) out.push(value[i]);
        }
        break;
      case "slice":
        if (Array.isArray(value)) out.push(...sliceOf(value, step));
        break;
      case "filter":
        for (const item of Array.isArray(value) ? value : [value]) {
          if (filterHolds(step.filter, item)) out.push(item);
        }
        break;
    }
  }
  return out;
}

function applySteps(steps: readonly Step[], start: readonly unknown[]): unknown[] {
  let values: unknown[] = [...start];
  for (const step of steps) {
    values = applyStep(step, values);
    if (values.length === 0) break;
  }
  return values;
}

/**
 * Evaluates a JSONPath expression against a JSON value and returns every match, in document
 * order (map keys sorted, as Kubernetes walks them). Missing keys, out-of-range indices and type
 * mismatches produce no match instead of an error (Kubernetes' `AllowMissingKeys(true)`).
 * A string path is parsed on each call; pass a `JsonPath` from `parseJsonPath` to reuse one.
 * Throws SyntaxError only for a malformed path.
 */
export function evaluate(path: string | JsonPath, obj: unknown): unknown[] {
  const parsed = typeof path === "string" ? parseJsonPath(path) : path;
  return applySteps(parsed.steps, [obj]);
}
