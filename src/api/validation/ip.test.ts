import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../meta/field-errors.ts";
import { fieldPath } from "../meta/field-path.ts";
import {
  cidrContains,
  isFullyQualifiedDomainName,
  isIpv4,
  isValidIpv4Address,
  isValidIpv6Address,
  parseCidrSloppy,
  parseIpSloppy,
  validateNonSpecialIp,
} from "./ip.ts";

const parses = [
  { text: "10.0.0.1", v4: true },
  { text: "010.000.000.001", v4: true },
  { text: "::ffff:10.0.0.1", v4: true },
  { text: "fd00::1", v4: false },
  { text: "::", v4: false },
  { text: "2001:db8:0:0:0:0:0:1", v4: false },
  { text: "64:ff9b::10.0.0.1", v4: false },
] as const;
for (const c of parses) {
  test(`parseIpSloppy: ${c.text} is an ${c.v4 ? "IPv4" : "IPv6"} address`, () => {
    const ip = parseIpSloppy(c.text);
    assert.ok(ip !== undefined, `${c.text} parses`);
    assert.equal(ip.length, 16);
    assert.equal(isIpv4(ip), c.v4);
  });
}

for (const text of ["", "10.0.0", "10.0.0.256", "10.0.0.1/24", "fd00::1::2", "fd00::1%eth0", "x"]) {
  test(`parseIpSloppy: ${JSON.stringify(text)} is not an address`, () => {
    assert.equal(parseIpSloppy(text), undefined);
  });
}

const path = fieldPath("ip");
const cases = [
  { name: "a pod address", errs: validateNonSpecialIp("10.244.0.5", path), want: [] },
  {
    name: "unspecified",
    errs: validateNonSpecialIp("0.0.0.0", path),
    want: ['ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)'],
  },
  {
    name: "loopback",
    errs: validateNonSpecialIp("::1", path),
    want: ['ip: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)'],
  },
  {
    name: "link-local",
    errs: validateNonSpecialIp("169.254.169.254", path),
    want: [
      'ip: Invalid value: "169.254.169.254": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
    ],
  },
  {
    name: "link-local multicast",
    errs: validateNonSpecialIp("ff02::1", path),
    want: [
      'ip: Invalid value: "ff02::1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
    ],
  },
  {
    name: "IPv6 in an IPv4 field",
    errs: isValidIpv4Address(path, "fd00::1"),
    want: ['ip: Invalid value: "fd00::1": must be a valid IPv4 address'],
  },
  {
    name: "IPv4 in an IPv6 field",
    errs: isValidIpv6Address(path, "10.0.0.1"),
    want: ['ip: Invalid value: "10.0.0.1": must be a valid IPv6 address'],
  },
  {
    name: "a one-label FQDN",
    errs: isFullyQualifiedDomainName(path, "web"),
    want: [
      'ip: Invalid value: "web": should be a domain with at least two segments separated by dots',
    ],
  },
  { name: "an FQDN with a trailing dot", errs: isFullyQualifiedDomainName(path, "a.b."), want: [] },
];
for (const c of cases) {
  test(`ip validation: ${c.name}`, () => {
    assert.deepEqual(c.errs.map(fieldErrorString), c.want);
  });
}

const cidrs = [
  { text: "10.0.0.0/8", prefix: 8, v4: true },
  { text: "010.1.2.3/16", prefix: 16, v4: true },
  { text: "0.0.0.0/0", prefix: 0, v4: true },
  { text: "fd00::/64", prefix: 64, v4: false },
  { text: "::ffff:10.0.0.0/104", prefix: 104, v4: false },
] as const;
for (const c of cidrs) {
  test(`parseCidrSloppy: ${c.text} is a /${c.prefix}`, () => {
    const cidr = parseCidrSloppy(c.text);
    assert.ok(cidr !== undefined, `${c.text} parses`);
    assert.equal(cidr.prefixLength, c.prefix);
    assert.equal(cidr.v4, c.v4);
  });
}

for (const text of [
  "10.0.0.0",
  "10.0.0.0/33",
  "10.0.0.0/-1",
  "10.0.0.0/",
  "fd00::/129",
  "x/8",
  "/8",
]) {
  test(`parseCidrSloppy: ${JSON.stringify(text)} is not a CIDR`, () => {
    assert.equal(parseCidrSloppy(text), undefined);
  });
}

const contains = [
  { cidr: "10.0.0.0/16", ip: "10.0.255.1", want: true },
  { cidr: "10.0.0.5/16", ip: "10.0.0.0", want: true },
  { cidr: "10.0.0.0/16", ip: "10.1.0.0", want: false },
  { cidr: "0.0.0.0/0", ip: "192.168.1.1", want: true },
  { cidr: "0.0.0.0/0", ip: "fd00::1", want: false },
  { cidr: "fd00::/64", ip: "fd00::ffff", want: true },
  { cidr: "fd00::/64", ip: "fd01::", want: false },
] as const;
for (const c of contains) {
  test(`cidrContains: ${c.cidr} ${c.want ? "contains" : "does not contain"} ${c.ip}`, () => {
    const cidr = parseCidrSloppy(c.cidr);
    const ip = parseIpSloppy(c.ip);
    assert.ok(cidr !== undefined && ip !== undefined, "both parse");
    assert.equal(cidrContains(cidr, ip), c.want);
  });
}
