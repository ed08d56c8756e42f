/**
 * Node allocatable as the kubelet computes it: capacity minus systemReserved, kubeReserved and
 * the hard eviction thresholds, clamped at zero, with huge pages taken out of memory.
 */
import {
  addQuantities,
  formatQuantity,
  isHugePageResourceName,
  type ParsedQuantity,
  parseQuantity,
  quantityValue,
  type ResourceList,
} from "../../api/index.ts";
import {
  formatNonNegative,
  subtractQuantities,
  tryParseQuantity,
  zeroQuantity,
} from "../internal/resources.ts";

/** What the kubelet keeps back from pods. */
export interface Reservations {
  readonly systemReserved: Readonly<ResourceList>;
  readonly kubeReserved: Readonly<ResourceList>;
  /** Eviction signals (`memory.available`, `nodefs.available`) to a quantity or a percentage. */
  readonly evictionHard: Readonly<Record<string, string>>;
}

/** Which resource an eviction signal protects; the others do not change allocatable. */
const evictionSignalResource: Readonly<Record<string, string>> = {
  "memory.available": "memory",
  "nodefs.available": "ephemeral-storage",
};

/** The eviction signals the kubelet knows. */
export const evictionSignals = [
  "memory.available",
  "nodefs.available",
  "nodefs.inodesFree",
  "imagefs.available",
  "imagefs.inodesFree",
  "containerfs.available",
  "containerfs.inodesFree",
  "pid.available",
] as const satisfies readonly string[];

function add(sum: Map<string, ParsedQuantity>, name: string, q: ParsedQuantity): void {
  const previous = sum.get(name);
  sum.set(name, previous === undefined ? q : addQuantities(previous, q));
}

/**
 * The threshold of one eviction signal as a quantity: `100Mi` as given, `10%` as that share of
 * the resource's capacity (rounded down to a whole unit, as upstream).
 */
export function evictionThreshold(
  value: string,
  capacity: ParsedQuantity | undefined,
): ParsedQuantity | undefined {
  const percent = /^([0-9]+(?:\.[0-9]+)?)%$/.exec(value.trim());
  if (percent?.[1] !== undefined) {
    const share = Number(percent[1]) / 100;
    const whole = capacity === undefined ? 0 : quantityValue(capacity);
    return parseQuantity(String(Math.floor(whole * share)));
  }
  return tryParseQuantity(value.trim());
}

/**
 * Upstream's `GetNodeAllocatableReservation`: per resource, systemReserved + kubeReserved +
 * the hard eviction threshold that guards it.
 */
export function allocatableReservation(
  capacity: Readonly<ResourceList>,
  reservations: Reservations,
): Map<string, ParsedQuantity> {
  const sum = new Map<string, ParsedQuantity>();
  for (const list of [reservations.systemReserved, reservations.kubeReserved]) {
    for (const [name, text] of Object.entries(list)) {
      const q = tryParseQuantity(text);
      if (q !== undefined) add(sum, name, q);
    }
  }
  for (const [signal, value] of Object.entries(reservations.evictionHard)) {
    const resource = evictionSignalResource[signal];
    if (resource === undefined) continue;
    const q = evictionThreshold(value, tryParseQuantity(capacity[resource]));
    if (q !== undefined) add(sum, resource, q);
  }
  return sum;
}

/**
 * Problems with a reservation larger than capacity, in upstream's words:
 * `Resource "cpu" has a reservation of 5 but capacity of 4. Expected capacity >= reservation.`
 */
export function validateReservation(
  capacity: Readonly<ResourceList>,
  reservations: Reservations,
): string[] {
  const problems: string[] = [];
  for (const [name, reserved] of allocatableReservation(capacity, reservations)) {
    const cap = tryParseQuantity(capacity[name]) ?? zeroQuantity();
    if (subtractQuantities(cap, reserved).unscaled < 0n) {
      problems.push(
        `Resource "${name}" has a reservation of ${formatQuantity(reserved)} but capacity of ${formatQuantity(cap)}. Expected capacity >= reservation.`,
      );
    }
  }
  return problems;
}

/**
 * The reservations the kubelet applies: with `reservedSystemCPUs`, its CPU count replaces
 * systemReserved.cpu and kubeReserved.cpu is dropped (upstream's `--reserved-cpus` override).
 */
export function effectiveReservations(
  reservations: Reservations & { readonly reservedSystemCPUs?: string },
): Reservations {
  const count = cpuListSize(reservations.reservedSystemCPUs ?? "");
  if (count === 0) return reservations;
  const { cpu: _dropped, ...kubeReserved } = reservations.kubeReserved;
  return {
    systemReserved: { ...reservations.systemReserved, cpu: String(count) },
    kubeReserved,
    evictionHard: reservations.evictionHard,
  };
}

/** The number of CPUs in a list such as `"0-3,8"` (0 for "" or a malformed list). */
function cpuListSize(list: string): number {
  const ids = new Set<number>();
  for (const part of list.split(",")) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (m?.[1] === undefined) return 0;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    for (let id = from; id <= to; id++) ids.add(id);
  }
  return ids.size;
}

/** Allocatable from capacity and reservations (upstream's node status `MachineInfo` setter). */
export function computeAllocatable(
  capacity: Readonly<ResourceList>,
  reservations: Reservations,
): ResourceList {
  const reserved = allocatableReservation(capacity, reservations);
  const out: ResourceList = {};
  for (const [name, text] of Object.entries(capacity)) {
    const cap = tryParseQuantity(text);
    if (cap === undefined) continue;
    const r = reserved.get(name);
    out[name] = formatNonNegative(r === undefined ? cap : subtractQuantities(cap, r));
  }
  const memory = tryParseQuantity(out["memory"]);
  if (memory !== undefined) {
    let left = memory;
    for (const [name, text] of Object.entries(capacity)) {
      const pages = isHugePageResourceName(name) ? tryParseQuantity(text) : undefined;
      if (pages !== undefined) left = subtractQuantities(left, pages);
    }
    out["memory"] = formatNonNegative(left);
  }
  return out;
}
