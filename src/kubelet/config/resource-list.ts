/** Reads resource lists (`cpu: 4`, `memory: 16Gi`, `nvidia.com/gpu: 8`) from a cluster config. */
import {
  formatQuantity,
  isExtendedResourceName,
  isHugePageResourceName,
  isQualifiedName,
  type ParsedQuantity,
  parseQuantity,
  type ResourceList,
} from "../../api/index.ts";
import { childPath, type Problems, readObject, suggest } from "./reader.ts";

const bareNames = ["cpu", "memory", "pods", "ephemeral-storage", "storage"] as const;

function nameProblem(name: string): string | undefined {
  if ((bareNames as readonly string[]).includes(name)) return undefined;
  if (isHugePageResourceName(name)) {
    try {
      parseQuantity(name.slice("hugepages-".length));
      return undefined;
    } catch (error: unknown) {
      if (!(error instanceof SyntaxError)) throw error;
      return `invalid huge page size; write it as hugepages-2Mi or hugepages-1Gi`;
    }
  }
  if (name.includes("/")) {
    const errors = isQualifiedName(name);
    return errors.length === 0 ? undefined : `invalid resource name: ${errors.join("; ")}`;
  }
  const hint = suggest(name, bareNames);
  return hint === undefined
    ? `unknown resource; use cpu, memory, pods, ephemeral-storage, hugepages-<size> or a domain-prefixed extended resource such as nvidia.com/gpu`
    : `unknown resource; did you mean "${hint}"?`;
}

/** Parses one quantity value, reporting a problem with an example of the right form. */
export function readQuantity(
  value: unknown,
  path: string,
  problems: Problems,
): ParsedQuantity | undefined {
  if (typeof value !== "string" && typeof value !== "number") {
    problems.add(
      path,
      `must be a quantity such as "4", "500m" or "16Gi", got ${JSON.stringify(value)}`,
    );
    return undefined;
  }
  try {
    return parseQuantity(String(value));
  } catch (error: unknown) {
    if (!(error instanceof SyntaxError)) throw error;
    problems.add(
      path,
      `invalid quantity ${JSON.stringify(String(value))} (${error.message}); write a quantity such as "4", "500m" or "16Gi"`,
    );
    return undefined;
  }
}

/**
 * A resource list with canonical quantities (`1024Mi` → `1Gi`), or `undefined` when absent.
 * Names must be standard or domain-prefixed; values non-negative; extended resources whole.
 */
export function readResourceList(
  value: unknown,
  path: string,
  problems: Problems,
): ResourceList | undefined {
  const object = readObject(value, path, problems);
  if (object === undefined) return undefined;
  const out: ResourceList = {};
  for (const [name, item] of Object.entries(object)) {
    const p = childPath(path, name);
    const bad = nameProblem(name);
    if (bad !== undefined) {
      problems.add(p, bad);
      continue;
    }
    const q = readQuantity(item, p, problems);
    if (q === undefined) continue;
    if (q.unscaled < 0n) {
      problems.add(p, `must not be negative, got ${formatQuantity(q)}`);
      continue;
    }
    const whole = q.scale >= 0 || q.unscaled % 10n ** BigInt(-q.scale) === 0n;
    if ((isExtendedResourceName(name) || name === "pods") && !whole) {
      problems.add(p, `must be a whole number, got ${formatQuantity(q)}`);
      continue;
    }
    out[name] = formatQuantity(q);
  }
  return out;
}
