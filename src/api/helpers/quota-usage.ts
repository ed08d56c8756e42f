/**
 * Resource lists as quota counts them (upstream's k8s.io/apiserver/pkg/quota/v1 resources.go):
 * exact quantities keyed by resource name, added, masked and compared without rounding, and
 * printed as upstream prints them in quota messages.
 */
import type { ResourceList } from "../core/v1/pod-template.ts";
import {
  compareQuantities,
  formatQuantity,
  type ParsedQuantity,
  parseQuantity,
} from "../resource/quantity.ts";

/** Resource name → exact quantity. */
export type Usage = Map<string, ParsedQuantity>;

export const zeroQuantity: ParsedQuantity = Object.freeze({
  unscaled: 0n,
  scale: 0,
  format: "DecimalSI",
});

/** A whole-number quantity (object counts). */
export function countQuantity(n: number): ParsedQuantity {
  return { unscaled: BigInt(n), scale: 0, format: "DecimalSI" };
}

/** Parses a ResourceList; a value that does not parse counts as 0 (validation rejects those). */
export function usageOf(list: Readonly<Record<string, string>> | undefined): Usage {
  const out: Usage = new Map();
  for (const [name, text] of Object.entries(list ?? {})) {
    try {
      out.set(name, parseQuantity(String(text)));
    } catch (error: unknown) {
      if (!(error instanceof SyntaxError)) throw error;
      out.set(name, zeroQuantity);
    }
  }
  return out;
}

/** The ResourceList of a usage, quantities printed canonically. */
export function resourceListOf(usage: Usage): ResourceList {
  const out: ResourceList = {};
  for (const [name, q] of usage) out[name] = formatQuantity(q);
  return out;
}

/** `Quantity.Add`: exact; a zero left side takes the right side's format. */
export function addQuantity(a: ParsedQuantity, b: ParsedQuantity): ParsedQuantity {
  const format = a.unscaled === 0n ? b.format : a.format;
  const scale = Math.min(a.scale, b.scale);
  const unscaled =
    a.unscaled * 10n ** BigInt(a.scale - scale) + b.unscaled * 10n ** BigInt(b.scale - scale);
  return unscaled === 0n ? { unscaled, scale: 0, format } : { unscaled, scale, format };
}

/** `Quantity.Sub`. */
export function subtractQuantity(a: ParsedQuantity, b: ParsedQuantity): ParsedQuantity {
  return addQuantity(a, { ...b, unscaled: -b.unscaled });
}

/** `quota.Add`: the sum of both lists, keys of either. */
export function addUsage(a: Usage, b: Usage): Usage {
  const out: Usage = new Map();
  for (const [name, q] of a) {
    const other = b.get(name);
    out.set(name, other === undefined ? q : addQuantity(q, other));
  }
  for (const [name, q] of b) if (!out.has(name)) out.set(name, q);
  return out;
}

/** `quota.SubtractWithNonNegativeResult`: `a - b` per key of either, never below 0. */
export function subtractNonNegative(a: Usage, b: Usage): Usage {
  const out: Usage = new Map();
  for (const [name, q] of a) {
    const other = b.get(name);
    const diff = other === undefined ? q : subtractQuantity(q, other);
    out.set(name, diff.unscaled > 0n ? diff : zeroQuantity);
  }
  for (const name of b.keys()) if (!out.has(name)) out.set(name, zeroQuantity);
  return out;
}

/** `quota.Mask`: only the named resources. */
export function maskUsage(usage: Usage, names: Iterable<string>): Usage {
  const out: Usage = new Map();
  for (const name of names) {
    const q = usage.get(name);
    if (q !== undefined) out.set(name, q);
  }
  return out;
}

/** `quota.RemoveZeros`. */
export function removeZeros(usage: Usage): Usage {
  return new Map([...usage].filter(([, q]) => q.unscaled !== 0n));
}

/** `quota.IsNegative`: the names whose quantity is below zero. */
export function negativeResources(usage: Usage): string[] {
  return [...usage].filter(([, q]) => q.unscaled < 0n).map(([name]) => name);
}

/** `quota.Equals`: the same names with equal quantities. */
export function usageEquals(a: Usage, b: Usage): boolean {
  if (a.size !== b.size) return false;
  for (const [name, q] of a) {
    const other = b.get(name);
    if (other === undefined || compareQuantities(q, other) !== 0) return false;
  }
  return true;
}

/** `quota.LessThanOrEqual`: the names of `limits` that `usage` exceeds (empty when it fits). */
export function exceededResources(usage: Usage, limits: Usage): string[] {
  const out: string[] = [];
  for (const [name, limit] of limits) {
    const q = usage.get(name);
    if (q !== undefined && compareQuantities(q, limit) > 0) out.push(name);
  }
  return out;
}

/** `prettyPrint`: `cpu=1,memory=1Gi`, names sorted. */
export function printUsage(usage: Usage): string {
  return [...usage.keys()]
    .sort()
    .map((name) => `${name}=${formatQuantity(usage.get(name) ?? zeroQuantity)}`)
    .join(",");
}
