/** Quantity arithmetic the kubelet needs beyond api/: subtraction, lenient parsing, clamping. */
import {
  addQuantities,
  formatQuantity,
  type ParsedQuantity,
  parseQuantity,
} from "../../api/index.ts";

/** `a − b`, keeping `a`'s format, as upstream's `Quantity.Sub`. */
export function subtractQuantities(a: ParsedQuantity, b: ParsedQuantity): ParsedQuantity {
  return addQuantities(a, { ...b, unscaled: -b.unscaled });
}

/** Parses a quantity or returns `undefined` (for values already validated elsewhere). */
export function tryParseQuantity(text: string | undefined): ParsedQuantity | undefined {
  if (text === undefined) return undefined;
  try {
    return parseQuantity(text);
  } catch (error: unknown) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** Zero in the given format. */
export function zeroQuantity(format: ParsedQuantity["format"] = "DecimalSI"): ParsedQuantity {
  return { unscaled: 0n, scale: 0, format };
}

/** Prints a quantity, clamping negatives to `0` (negative allocatable makes no sense). */
export function formatNonNegative(q: ParsedQuantity): string {
  return q.unscaled < 0n ? "0" : formatQuantity(q);
}
