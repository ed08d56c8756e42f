/** How amounts read on screen: cpu in cores, bytes in binary units, counts as they are. */

/** Millicores as cores: 3500 → "3.5", 250 → "0.25", 4000 → "4". */
export function formatCpu(milli: number): string {
  return String(Math.round(milli) / 1000);
}

const binaryUnits = ["", "Ki", "Mi", "Gi", "Ti", "Pi"] as const;

/** Bytes in the largest binary unit that keeps the number at least 1: 17179869184 → "16Gi". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < binaryUnits.length - 1) {
    value /= 1024;
    unit++;
  }
  const rounded = Math.round(value * 10) / 10;
  return `${rounded}${binaryUnits[unit] ?? ""}`;
}

/** An amount of `resource` as `podRequests` counts it (cpu in millicores, else whole units). */
export function formatAmount(resource: string, amount: number): string {
  if (resource === "cpu") return formatCpu(amount);
  if (
    resource === "memory" ||
    resource === "ephemeral-storage" ||
    resource.startsWith("hugepages-")
  ) {
    return formatBytes(amount);
  }
  return String(amount);
}

/** A share as a whole percentage, 0 when there is nothing to share. */
export function percent(used: number, total: number): number {
  if (total <= 0) return used > 0 ? 100 : 0;
  return Math.round((used / total) * 100);
}
