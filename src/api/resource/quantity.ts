/**
 * Kubernetes resource quantities (`k8s.io/apimachinery/pkg/api/resource`): parsing the full
 * grammar, canonical printing as upstream's `Quantity.String()`, and integer views rounded away
 * from zero as `Value()` and `MilliValue()` are.
 */

declare const brand: unique symbol;
type Branded<T, B extends string> = T & { readonly [brand]: B };

/** CPU in thousandths of a core: `250m` is 250, `2` is 2000. */
export type MilliCpu = Branded<number, "MilliCpu">;
/** Memory or storage in bytes. */
export type Bytes = Branded<number, "Bytes">;

/** How a quantity prints: `1k`/`1M` (DecimalSI), `1Ki`/`1Mi` (BinarySI) or `1e3` (DecimalExponent). */
export type QuantityFormat = "DecimalSI" | "BinarySI" | "DecimalExponent";

/** A parsed quantity: exactly `unscaled × 10^scale`, with `scale ≥ -9` (nano precision). */
export interface ParsedQuantity {
  readonly unscaled: bigint;
  readonly scale: number;
  readonly format: QuantityFormat;
}

export const quantityFormatError =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const quantitySuffixError = "unable to parse quantity's suffix";

const decimalSuffixes: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  "": 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const binarySuffixes: Readonly<Record<string, number>> = {
  Ki: 10,
  Mi: 20,
  Gi: 30,
  Ti: 40,
  Pi: 50,
  Ei: 60,
};
const binaryByPower = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"] as const;
const decimalByExponent = new Map(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));
const minScale = -9;
const maxInt64 = (1n << 63n) - 1n;

/**
 * Parses a quantity such as `500m`, `1.5Gi`, `2e3` or `-1`. Values finer than nano are rounded
 * up (away from zero), as upstream does so that a tiny request still gets something.
 * Throws `SyntaxError` with upstream's messages. The same few texts (`100m`, `64Mi`) come back
 * in every pod, through defaulting, validation, QoS and admission, so answers are remembered
 * (a parsed quantity is immutable); the memory is bounded and starts over when full.
 */
export function parseQuantity(text: string): ParsedQuantity {
  const known = parsed.get(text);
  if (known !== undefined) return known;
  const quantity = Object.freeze(parseText(text));
  if (parsed.size >= parsedLimit) parsed.clear();
  parsed.set(text, quantity);
  return quantity;
}

const parsed = new Map<string, ParsedQuantity>();
const parsedLimit = 4096;

function parseText(text: string): ParsedQuantity {
  // "." and "-." are zero upstream: the number needs a digit or a decimal point.
  const match = /^([+-]?)([0-9]*)(\.([0-9]*))?(.*)$/.exec(text);
  const sign = match?.[1] ?? "";
  const whole = match?.[2] ?? "";
  const point = match?.[3] ?? "";
  const fraction = match?.[4] ?? "";
  const suffix = match?.[5] ?? "";
  if (match === null || whole.length + point.length === 0) {
    throw new SyntaxError(quantityFormatError);
  }
  if (!/^[eEinumkKMGTP]*[-+]?[0-9]*$/.test(suffix)) throw new SyntaxError(quantityFormatError);

  let format: QuantityFormat;
  let exponent10 = 0;
  let power2 = 0;
  const dec = decimalSuffixes[suffix];
  const bin = binarySuffixes[suffix];
  if (bin !== undefined) {
    format = "BinarySI";
    power2 = bin;
  } else if (dec !== undefined) {
    format = "DecimalSI";
    exponent10 = dec;
  } else if (suffix.length > 1 && (suffix[0] === "e" || suffix[0] === "E")) {
    const exp = suffix.slice(1);
    if (!/^[-+]?[0-9]+$/.test(exp) || Math.abs(Number(exp)) > 2 ** 31 - 1) {
      throw new SyntaxError(quantitySuffixError);
    }
    format = "DecimalExponent";
    exponent10 = Number(exp);
  } else {
    throw new SyntaxError(quantitySuffixError);
  }

  let unscaled = BigInt(`${whole}${fraction}` || "0") << BigInt(power2);
  let scale = exponent10 - fraction.length;
  if (unscaled !== 0n && scale < minScale) {
    unscaled = divideAwayFromZero(unscaled, 10n ** BigInt(minScale - scale));
    scale = minScale;
  }
  if (format === "BinarySI") {
    if (compareParts(unscaled, scale, maxInt64, 0) > 0) {
      unscaled = maxInt64;
      scale = 0;
    }
    if (unscaled !== 0n && compareParts(unscaled, scale, 1n, 0) < 0) format = "DecimalSI";
  }
  if (sign === "-") unscaled = -unscaled;
  return normalize({ unscaled, scale, format });
}

/** Whether `text` parses as a quantity. */
export function isQuantity(text: string): boolean {
  try {
    parseQuantity(text);
    return true;
  } catch {
    return false;
  }
}

/** The canonical string upstream prints: `1Gi` for `1024Mi`, `1` for `1000m`, `0` for zero. */
export function formatQuantity(q: ParsedQuantity): string {
  // A quantity `parseQuantity` remembered is formatted once.
  let text = formatted.get(q);
  if (text === undefined) {
    text = formatText(q);
    if (Object.isFrozen(q)) formatted.set(q, text);
  }
  return text;
}

const formatted = new WeakMap<ParsedQuantity, string>();

function formatText(q: ParsedQuantity): string {
  if (q.unscaled === 0n) return "0";
  let format = q.format;
  if (format === "BinarySI") {
    const small = compareParts(abs(q.unscaled), q.scale, 1024n, 0) < 0;
    if (small || !isInteger(q)) format = "DecimalSI";
  }
  if (format === "BinarySI") {
    let value = integerPart(q);
    let power = 0;
    while (power < 6 && value % 1024n === 0n) {
      value /= 1024n;
      power++;
    }
    return `${value}${binaryByPower[power] ?? ""}`;
  }
  let mantissa = q.unscaled;
  let exponent = q.scale;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  while (((exponent % 3) + 3) % 3 !== 0) {
    mantissa *= 10n;
    exponent--;
  }
  if (format === "DecimalExponent")
    return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  const suffix = decimalByExponent.get(exponent);
  // DecimalSI has no suffix beyond E (10^18): larger values print in exponent notation.
  return suffix === undefined ? `${mantissa}e${exponent}` : `${mantissa}${suffix}`;
}

/** Parses and prints canonically: `canonicalQuantity("1024Mi")` is `"1Gi"`. */
export function canonicalQuantity(text: string | number): string {
  return formatQuantity(parseQuantity(String(text)));
}

/** `Value()`: the value in whole units, rounded away from zero. */
export function value(q: ParsedQuantity): number {
  return Number(scaledValue(q, 0));
}

/** `MilliValue()`: the value in thousandths, rounded away from zero. */
export function milliValue(q: ParsedQuantity): number {
  return Number(scaledValue(q, -3));
}

/** The value at `10^scale` units as a bigint, rounded away from zero. */
export function scaledValue(q: ParsedQuantity, scale: number): bigint {
  if (q.scale >= scale) return q.unscaled * 10n ** BigInt(q.scale - scale);
  return divideAwayFromZero(q.unscaled, 10n ** BigInt(scale - q.scale));
}

/** Compares two quantities: negative, zero or positive as `a` is less than, equal to or more than `b`. */
export function compareQuantities(a: ParsedQuantity, b: ParsedQuantity): number {
  return compareParts(a.unscaled, a.scale, b.unscaled, b.scale);
}

/** The exact sum; the result takes `a`'s format, as upstream's `Add`. */
export function addQuantities(a: ParsedQuantity, b: ParsedQuantity): ParsedQuantity {
  const scale = Math.min(a.scale, b.scale);
  const unscaled =
    a.unscaled * 10n ** BigInt(a.scale - scale) + b.unscaled * 10n ** BigInt(b.scale - scale);
  return normalize({ unscaled, scale, format: a.format });
}

/** Parses a CPU quantity into millicores (`250m` → 250, `1.5` → 1500), rounding up. */
export function parseCpu(text: string): MilliCpu {
  return milliValue(parseQuantity(text)) as MilliCpu;
}

/** Parses a memory or storage quantity into bytes (`1Ki` → 1024), rounding up. */
export function parseBytes(text: string): Bytes {
  return value(parseQuantity(text)) as Bytes;
}

/** The static CPU policy grants exclusive cores only for whole-core requests. */
export function isWholeCores(cpu: MilliCpu): boolean {
  return cpu > 0 && cpu % 1000 === 0;
}

function normalize(q: ParsedQuantity): ParsedQuantity {
  if (q.unscaled === 0n) return { unscaled: 0n, scale: 0, format: q.format };
  return q;
}

function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}

function divideAwayFromZero(n: bigint, d: bigint): bigint {
  const quotient = n / d;
  if (quotient * d === n) return quotient;
  return n < 0n ? quotient - 1n : quotient + 1n;
}

function compareParts(a: bigint, aScale: number, b: bigint, bScale: number): number {
  const scale = Math.min(aScale, bScale);
  const x = a * 10n ** BigInt(aScale - scale);
  const y = b * 10n ** BigInt(bScale - scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

function isInteger(q: ParsedQuantity): boolean {
  return q.scale >= 0 || q.unscaled % 10n ** BigInt(-q.scale) === 0n;
}

function integerPart(q: ParsedQuantity): bigint {
  return q.scale >= 0 ? q.unscaled * 10n ** BigInt(q.scale) : q.unscaled / 10n ** BigInt(-q.scale);
}
