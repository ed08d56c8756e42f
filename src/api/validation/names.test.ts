import assert from "node:assert/strict";
import { test } from "node:test";
import {
  isConfigMapKey,
  isDns1035Label,
  isDns1123Label,
  isDns1123Subdomain,
  isEnvVarName,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
  isWildcardDns1123Subdomain,
  maskTrailingDash,
} from "./names.ts";

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const namePartMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const configKeyMsg =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

const cases = [
  { name: "subdomain accepts dotted names", fn: isDns1123Subdomain, input: "a.b-c.d", want: [] },
  {
    name: "subdomain rejects upper case",
    fn: isDns1123Subdomain,
    input: "Bad_Name",
    want: [subdomainMsg],
  },
  {
    name: "subdomain rejects over 253 characters",
    fn: isDns1123Subdomain,
    input: "a".repeat(254),
    want: ["must be no more than 253 characters"],
  },
  { name: "label rejects dots", fn: isDns1123Label, input: "a.b", want: [labelMsg] },
  {
    name: "label rejects 64 characters",
    fn: isDns1123Label,
    input: "a".repeat(64),
    want: ["must be no more than 63 characters"],
  },
  {
    name: "wildcard subdomain accepts *.example.com",
    fn: isWildcardDns1123Subdomain,
    input: "*.example.com",
    want: [],
  },
  {
    name: "wildcard subdomain rejects a wildcard that is not the whole first label",
    fn: isWildcardDns1123Subdomain,
    input: "*foo.example.com",
    want: [
      "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ],
  },
  {
    name: "DNS-1035 label rejects a leading digit",
    fn: isDns1035Label,
    input: "1abc",
    want: [
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ],
  },
  {
    name: "qualified name with prefix",
    fn: isQualifiedName,
    input: "example.com/My_Name",
    want: [],
  },
  {
    name: "qualified name rejects a trailing dash",
    fn: isQualifiedName,
    input: "name-",
    want: [namePartMsg],
  },
  {
    name: "qualified name reports an empty name part twice, as upstream",
    fn: isQualifiedName,
    input: "example.com/",
    want: ["name part must be non-empty", namePartMsg],
  },
  {
    name: "qualified name with an empty prefix",
    fn: isQualifiedName,
    input: "/name",
    want: ["prefix part must be non-empty"],
  },
  {
    name: "qualified name with a bad prefix",
    fn: isQualifiedName,
    input: "Example.com/name",
    want: [`prefix part ${subdomainMsg}`],
  },
  {
    name: "qualified name with two slashes",
    fn: isQualifiedName,
    input: "a/b/c",
    want: [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ],
  },
  { name: "label value may be empty", fn: isValidLabelValue, input: "", want: [] },
  {
    name: "label value rejects spaces",
    fn: isValidLabelValue,
    input: "a b",
    want: [labelValueMsg],
  },
  { name: "config key rejects a slash", fn: isConfigMapKey, input: "a/b", want: [configKeyMsg] },
  { name: "config key rejects '..'", fn: isConfigMapKey, input: "..", want: ["must not be '..'"] },
  {
    name: "config key rejects a '..' prefix",
    fn: isConfigMapKey,
    input: "..a",
    want: ["must not start with '..'"],
  },
  {
    name: "env var names may not contain '='",
    fn: isEnvVarName,
    input: "A=B",
    want: [
      "a valid environment variable name must consist only of printable ASCII characters other than '='",
    ],
  },
  {
    name: "port names need a letter and no double hyphen",
    fn: isValidPortName,
    input: "1--2",
    want: ["must contain at least one letter (a-z)", "must not contain consecutive hyphens"],
  },
] as const;

for (const c of cases) {
  test(`names.${c.fn.name}: ${c.name}`, () => {
    assert.deepEqual(c.fn(c.input), c.want);
  });
}

test("names.maskTrailingDash: replaces one trailing dash", () => {
  assert.equal(maskTrailingDash("web-"), "weba");
  assert.equal(maskTrailingDash("-"), "-");
  assert.equal(maskTrailingDash("web"), "web");
});
