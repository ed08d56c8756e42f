/**
 * Address bookkeeping: node pod ranges carved from the cluster's pod subnet (the node IPAM
 * controller's job upstream), and pod IPs handed out from a node's range (host-local IPAM).
 */
import {
  formatIpv4,
  formatIpv4Cidr,
  type Ipv4Cidr,
  nthSubnet,
  parseIpv4Cidr,
  podAddressRange,
  subnetCount,
} from "../internal/cidr.ts";

/** Hands out `/maskSize` ranges of the pod subnet, lowest free first. Not thread-shared. */
export class NodeCidrAllocator {
  readonly #subnet: Ipv4Cidr | undefined;
  readonly #maskSize: number;
  readonly #used = new Set<number>();
  #next = 0;

  constructor(podSubnet: string, maskSize: number) {
    this.#subnet = parseIpv4Cidr(podSubnet);
    this.#maskSize = maskSize;
  }

  #indexOf(cidr: string): number | undefined {
    const parsed = parseIpv4Cidr(cidr);
    const subnet = this.#subnet;
    if (parsed === undefined || subnet === undefined || parsed.prefix !== this.#maskSize) {
      return undefined;
    }
    const index = (parsed.base - subnet.base) / 2 ** (32 - this.#maskSize);
    return Number.isInteger(index) && index >= 0 && index < subnetCount(subnet, this.#maskSize)
      ? index
      : undefined;
  }

  /** Marks a range a node already has as taken (ranges outside the subnet are ignored). */
  reserve(cidr: string): void {
    const index = this.#indexOf(cidr);
    if (index !== undefined) this.#used.add(index);
  }

  /** Frees a range of a node that is gone. */
  release(cidr: string): void {
    const index = this.#indexOf(cidr);
    if (index === undefined) return;
    this.#used.delete(index);
    this.#next = Math.min(this.#next, index);
  }

  /** The lowest free range, or `undefined` when the subnet is used up. */
  allocate(): string | undefined {
    const subnet = this.#subnet;
    if (subnet === undefined) return undefined;
    const count = subnetCount(subnet, this.#maskSize);
    while (this.#next < count && this.#used.has(this.#next)) this.#next++;
    const range = nthSubnet(subnet, this.#maskSize, this.#next);
    if (range === undefined) return undefined;
    this.#used.add(this.#next);
    return formatIpv4Cidr(range);
  }
}

/**
 * Pod IPs of one node, handed out round-robin after the last one given (as host-local IPAM
 * does), skipping addresses in use. Keyed by pod uid, so allocating twice returns the same IP.
 */
export class PodIpAllocator {
  readonly #first: number;
  readonly #last: number;
  #cursor: number;
  readonly #byPod = new Map<string, number>();
  readonly #inUse = new Set<number>();

  constructor(podCIDR: string) {
    const cidr = parseIpv4Cidr(podCIDR);
    const range = cidr === undefined ? { first: 0, last: -1 } : podAddressRange(cidr);
    this.#first = range.first;
    this.#last = range.last;
    this.#cursor = range.first - 1;
  }

  /** Records an IP a pod already has (from its status). Ignored when outside the range or taken. */
  restore(podUid: string, ip: string): void {
    const parsed = parseIpv4Cidr(`${ip}/32`);
    if (parsed === undefined || parsed.base < this.#first || parsed.base > this.#last) return;
    if (this.#inUse.has(parsed.base) || this.#byPod.has(podUid)) return;
    this.#byPod.set(podUid, parsed.base);
    this.#inUse.add(parsed.base);
  }

  /** The pod's IP, allocating one if needed; `undefined` when the range is full. */
  allocate(podUid: string): string | undefined {
    const existing = this.#byPod.get(podUid);
    if (existing !== undefined) return formatIpv4(existing);
    const size = this.#last - this.#first + 1;
    for (let i = 0; i < size; i++) {
      this.#cursor = this.#cursor >= this.#last ? this.#first : this.#cursor + 1;
      if (this.#inUse.has(this.#cursor)) continue;
      this.#byPod.set(podUid, this.#cursor);
      this.#inUse.add(this.#cursor);
      return formatIpv4(this.#cursor);
    }
    return undefined;
  }

  /** Returns a pod's IP to the pool. Idempotent. */
  release(podUid: string): void {
    const ip = this.#byPod.get(podUid);
    if (ip === undefined) return;
    this.#byPod.delete(podUid);
    this.#inUse.delete(ip);
  }
}
