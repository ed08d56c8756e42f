// How Go's fmt.Fprint prints a decoded JSON value, which is what a Kubernetes JSONPath prints for
// a `string` printer column: strings raw, maps as `map[k:v]`, lists as `[a b]`.

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Go's `%v` for a decoded JSON number: integers (int64 in unstructured JSON) print in decimal;
 * other values as `%g` with the shortest precision, which switches to `1.5e+06` / `1e-05`
 * notation when the exponent is below -4 or at least 6.
 */
function goNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const [mantissa = "", exponentText = "0"] = n.toExponential().split("e");
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 6) return String(n);
  const sign = exponent < 0 ? "-" : "+";
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

/** `fmt.Sprint(value)` for a JSON value. */
export function goPrint(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (typeof value === "string") return value;
  if (typeof value === "number") return goNumber(value);
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(goPrint).join(" ")}]`;
  if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort(compareStrings);
    return `map[${keys.map((k) => `${k}:${goPrint(record[k])}`).join(" ")}]`;
  }
  return String(value);
}
