/**
 * IP address checks as apimachinery's util/validation (1.33) and k8s.io/utils/net's
 * `ParseIPSloppy` (Go 1.16's `net.ParseIP`, which allows leading zeros in IPv4 octets).
 */
import { type FieldErrorList, invalid, required } from "../meta/field-errors.ts";
import type { FieldPath } from "../meta/field-path.ts";
import { isDns1123Label, isDns1123Subdomain } from "./names.ts";

/** A parsed address: always 16 bytes, IPv4 as an IPv4-mapped IPv6 address (Go's `net.IP`). */
export type IpBytes = readonly number[];

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^[0-9]+$/.test(part)) return undefined;
    const n = Number.parseInt(part, 10);
    if (n > 255) return undefined;
    bytes.push(n);
  }
  return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...bytes];
}

function parseIpv6(text: string): number[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string): number[] | undefined => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] ?? "";
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIpv4(piece);
        if (v4 === undefined) return undefined;
        out.push(...v4.slice(12));
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
      const n = Number.parseInt(piece, 16);
      out.push(n >> 8, n & 0xff);
    }
    return out;
  };
  const head = groupsOf(halves[0] ?? "");
  if (head === undefined) return undefined;
  if (halves.length === 1) return head.length === 16 ? head : undefined;
  const tail = groupsOf(halves[1] ?? "");
  if (tail === undefined || head.length + tail.length > 14) return undefined;
  return [...head, ...new Array<number>(16 - head.length - tail.length).fill(0), ...tail];
}

/** `netutils.ParseIPSloppy`: the 16 bytes of an IPv4 or IPv6 address, else `undefined`. */
export function parseIpSloppy(text: string): IpBytes | undefined {
  for (const c of text) {
    if (c === ".") return parseIpv4(text);
    if (c === ":") return parseIpv6(text);
  }
  return undefined;
}

/** `net.IP.To4() != nil`: an IPv4 address, also written as `::ffff:a.b.c.d`. */
export function isIpv4(ip: IpBytes): boolean {
  return ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;
}

function isUnspecified(ip: IpBytes): boolean {
  return isIpv4(ip) ? ip.slice(12).every((b) => b === 0) : ip.every((b) => b === 0);
}

function isLoopback(ip: IpBytes): boolean {
  return isIpv4(ip) ? ip[12] === 127 : ip.slice(0, 15).every((b) => b === 0) && ip[15] === 1;
}

function isLinkLocalUnicast(ip: IpBytes): boolean {
  return isIpv4(ip)
    ? ip[12] === 169 && ip[13] === 254
    : ip[0] === 0xfe && ((ip[1] ?? 0) & 0xc0) === 0x80;
}

function isLinkLocalMulticast(ip: IpBytes): boolean {
  return isIpv4(ip)
    ? ip[12] === 224 && ip[13] === 0 && ip[14] === 0
    : ip[0] === 0xff && ((ip[1] ?? 0) & 0x0f) === 0x02;
}

/** `validation.IsValidIP`: any IPv4 or IPv6 address (sloppy parsing). */
export function isValidIp(path: FieldPath, value: string): FieldErrorList {
  return parseIpSloppy(value) === undefined
    ? [invalid(path, value, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")]
    : [];
}

/** `validation.IsValidIPv4Address`. */
export function isValidIpv4Address(path: FieldPath, value: string): FieldErrorList {
  const ip = parseIpSloppy(value);
  return ip === undefined || !isIpv4(ip)
    ? [invalid(path, value, "must be a valid IPv4 address")]
    : [];
}

/** `validation.IsValidIPv6Address`. */
export function isValidIpv6Address(path: FieldPath, value: string): FieldErrorList {
  const ip = parseIpSloppy(value);
  return ip === undefined || isIpv4(ip)
    ? [invalid(path, value, "must be a valid IPv6 address")]
    : [];
}

/**
 * `ValidateNonSpecialIP` (core validation): an address an endpoint can have, so not
 * unspecified, loopback, link-local or link-local multicast.
 */
export function validateNonSpecialIp(value: string, path: FieldPath): FieldErrorList {
  const ip = parseIpSloppy(value);
  if (ip === undefined) return [invalid(path, value, "must be a valid IP address")];
  const errs: FieldErrorList = [];
  if (isUnspecified(ip)) errs.push(invalid(path, value, `may not be unspecified (${value})`));
  if (isLoopback(ip)) {
    errs.push(invalid(path, value, "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
  }
  if (isLinkLocalUnicast(ip)) {
    errs.push(
      invalid(path, value, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"),
    );
  }
  if (isLinkLocalMulticast(ip)) {
    errs.push(
      invalid(
        path,
        value,
        "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)",
      ),
    );
  }
  return errs;
}

/** `validation.IsFullyQualifiedDomainName`: a DNS subdomain of at least two labels. */
export function isFullyQualifiedDomainName(path: FieldPath, value: string): FieldErrorList {
  if (value === "") return [required(path)];
  const name = value.endsWith(".") ? value.slice(0, -1) : value;
  const subdomain = isDns1123Subdomain(name);
  if (subdomain.length > 0) return [invalid(path, name, subdomain.join(","))];
  const labels = name.split(".");
  if (labels.length < 2) {
    return [invalid(path, name, "should be a domain with at least two segments separated by dots")];
  }
  for (const label of labels) {
    const errs = isDns1123Label(label);
    if (errs.length > 0) return [invalid(path, label, errs.join(","))];
  }
  return [];
}

/** A parsed CIDR: the masked network address and its prefix length. */
export interface Cidr {
  /** The network address (host bits cleared), 16 bytes as `IpBytes`. */
  readonly network: IpBytes;
  readonly prefixLength: number;
  /** Written as dotted IPv4 (`10.0.0.0/8`), so the prefix counts 32 bits, not 128. */
  readonly v4: boolean;
}

/**
 * `netutils.ParseCIDRSloppy` (Go 1.16's `net.ParseCIDR`, leading zeros allowed in IPv4 octets):
 * `undefined` for anything that is not `<address>/<decimal prefix length>`.
 */
export function parseCidrSloppy(text: string): Cidr | undefined {
  const slash = text.indexOf("/");
  if (slash < 0) return undefined;
  const address = text.slice(0, slash);
  const mask = text.slice(slash + 1);
  const v4 = !address.includes(":");
  const ip = v4 ? parseIpv4(address) : parseIpv6(address);
  if (ip === undefined || !/^[0-9]{1,6}$/.test(mask)) return undefined;
  const prefixLength = Number.parseInt(mask, 10);
  if (prefixLength > (v4 ? 32 : 128)) return undefined;
  const ones = v4 ? 96 + prefixLength : prefixLength;
  const network = ip.map((byte, i) => {
    const bits = Math.max(0, Math.min(8, ones - i * 8));
    return byte & ((0xff << (8 - bits)) & 0xff);
  });
  // An IPv4 network keeps its ::ffff: prefix even though those bits are not in its mask.
  if (v4) network.splice(0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff);
  return { network, prefixLength, v4 };
}

/** `IPNet.Contains`: whether `ip` is inside `cidr` (never across address families). */
export function cidrContains(cidr: Cidr, ip: IpBytes): boolean {
  if (isIpv4(cidr.network) !== isIpv4(ip)) return false;
  const offset = isIpv4(ip) ? 12 : 0;
  const bits = cidr.v4 || !isIpv4(ip) ? cidr.prefixLength : Math.max(0, cidr.prefixLength - 96);
  for (let i = 0; i < bits; i++) {
    const byte = offset + (i >> 3);
    const mask = 0x80 >> (i & 7);
    if (((cidr.network[byte] ?? 0) & mask) !== ((ip[byte] ?? 0) & mask)) return false;
  }
  return true;
}

/**
 * `IsValidCIDRForLegacyField` as 1.33 runs it (StrictIPCIDRValidation off): required, then
 * any value `ParseCIDRSloppy` accepts.
 */
export function isValidCidr(path: FieldPath, value: string): FieldErrorList {
  if (value === "") return [required(path)];
  return parseCidrSloppy(value) === undefined
    ? [invalid(path, value, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")]
    : [];
}
