/**
 * A vector of compute resources as the scheduler accounts them (upstream's `framework.Resource`):
 * millicores, bytes, a pod count and named scalar resources (extended resources, hugepages).
 * Mutable on purpose: NodeInfo adds and subtracts pods in place, and a clone is one object.
 */
import { isScalarResourceName } from "../../api/index.ts";

/** Best-effort pods count as 100m cpu when scoring (upstream's `DefaultMilliCPURequest`). */
export const defaultMilliCpuRequest = 100;
/** Best-effort pods count as 200Mi memory when scoring (upstream's `DefaultMemoryRequest`). */
export const defaultMemoryRequest = 200 * 1024 * 1024;

export class Resource {
  milliCpu = 0;
  memory = 0;
  ephemeralStorage = 0;
  /** Only meaningful for allocatable: the node's `pods` capacity. */
  allowedPodNumber = 0;
  /** Extended and other scalar resources by name; undefined until one is set. */
  scalarResources: Map<string, number> | undefined = undefined;

  /** A resource vector from amounts (see `ResourceAmounts`); unknown native names are dropped. */
  static fromAmounts(amounts: ReadonlyMap<string, number>): Resource {
    const r = new Resource();
    r.addAmounts(amounts);
    return r;
  }

  /** Adds `sign ×` each amount by name. */
  addAmounts(amounts: ReadonlyMap<string, number>, sign = 1): void {
    for (const [name, amount] of amounts) {
      switch (name) {
        case "cpu":
          this.milliCpu += sign * amount;
          break;
        case "memory":
          this.memory += sign * amount;
          break;
        case "ephemeral-storage":
          this.ephemeralStorage += sign * amount;
          break;
        case "pods":
          this.allowedPodNumber += sign * amount;
          break;
        default:
          if (isScalarResourceName(name)) this.addScalar(name, sign * amount);
      }
    }
  }

  /** Adds `sign × other` (allowedPodNumber excluded). */
  add(other: Resource, sign = 1): void {
    this.milliCpu += sign * other.milliCpu;
    this.memory += sign * other.memory;
    this.ephemeralStorage += sign * other.ephemeralStorage;
    if (other.scalarResources !== undefined) {
      for (const [name, amount] of other.scalarResources) this.addScalar(name, sign * amount);
    }
  }

  addScalar(name: string, amount: number): void {
    const scalars = this.scalarResources ?? new Map<string, number>();
    this.scalarResources = scalars;
    scalars.set(name, (scalars.get(name) ?? 0) + amount);
  }

  scalar(name: string): number {
    return this.scalarResources?.get(name) ?? 0;
  }

  /** The amount of a resource by its API name (`cpu` in millicores). */
  get(name: string): number {
    switch (name) {
      case "cpu":
        return this.milliCpu;
      case "memory":
        return this.memory;
      case "ephemeral-storage":
        return this.ephemeralStorage;
      case "pods":
        return this.allowedPodNumber;
      default:
        return this.scalar(name);
    }
  }

  /** Whether nothing is requested (pods aside). */
  isZero(): boolean {
    if (this.milliCpu !== 0 || this.memory !== 0 || this.ephemeralStorage !== 0) return false;
    if (this.scalarResources !== undefined) {
      for (const amount of this.scalarResources.values()) if (amount !== 0) return false;
    }
    return true;
  }

  clone(): Resource {
    const r = new Resource();
    r.milliCpu = this.milliCpu;
    r.memory = this.memory;
    r.ephemeralStorage = this.ephemeralStorage;
    r.allowedPodNumber = this.allowedPodNumber;
    if (this.scalarResources !== undefined) r.scalarResources = new Map(this.scalarResources);
    return r;
  }
}
