/** IPv4 CIDR arithmetic for node pod ranges and pod IPs. */

/** A parsed IPv4 network: `base` is the network address as an unsigned 32-bit number. */
export interface Ipv4Cidr {
  readonly base: number;
  readonly prefix: number;
}

/** Parses `10.0.0.0/8`; `undefined` when malformed or when host bits are set. */
export function parseIpv4Cidr(text: string): Ipv4Cidr | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(text.trim());
  if (match === null) return undefined;
  const octets = match.slice(1, 5).map(Number);
  const prefix = Number(match[5]);
  if (octets.some((o) => o > 255) || prefix > 32) return undefined;
  const base = octets.reduce((acc, o) => acc * 256 + o, 0);
  const size = 2 ** (32 - prefix);
  if (base % size !== 0) return undefined;
  return { base, prefix };
}

/** Prints an address held as a number. */
export function formatIpv4(address: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256).join(".");
}

/** Prints a network. */
export function formatIpv4Cidr(cidr: Ipv4Cidr): string {
  return `${formatIpv4(cidr.base)}/${cidr.prefix}`;
}

/** How many `/maskSize` subnets `cidr` holds. */
export function subnetCount(cidr: Ipv4Cidr, maskSize: number): number {
  return maskSize < cidr.prefix ? 0 : 2 ** (maskSize - cidr.prefix);
}

/** The `index`-th `/maskSize` subnet of `cidr`, or `undefined` past the end. */
export function nthSubnet(cidr: Ipv4Cidr, maskSize: number, index: number): Ipv4Cidr | undefined {
  if (index < 0 || index >= subnetCount(cidr, maskSize)) return undefined;
  return { base: cidr.base + index * 2 ** (32 - maskSize), prefix: maskSize };
}

/**
 * The pod addresses of a node range, as host-local IPAM hands them out: from the network
 * address + 2 (+1 is the bridge gateway) up to the last address before broadcast.
 */
export function podAddressRange(cidr: Ipv4Cidr): { readonly first: number; readonly last: number } {
  const size = 2 ** (32 - cidr.prefix);
  if (size <= 4) return { first: cidr.base, last: cidr.base + size - 1 };
  return { first: cidr.base + 2, last: cidr.base + size - 2 };
}
