/**
 * Name and value format checks with apimachinery's exact messages (`util/validation`). Each
 * returns the list of problems; an empty list means the value is valid.
 */

const dns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1035LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
const qualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const labelValueFmt = `(${qualifiedNameFmt})?`;
const configMapKeyFmt = "[-._a-zA-Z0-9]+";
const cIdentifierFmt = "[A-Za-z_][A-Za-z0-9_]*";

const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);
const dns1035LabelRe = new RegExp(`^${dns1035LabelFmt}$`);
const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`);
const labelValueRe = new RegExp(`^${labelValueFmt}$`);
const configMapKeyRe = new RegExp(`^${configMapKeyFmt}$`);
const cIdentifierRe = new RegExp(`^${cIdentifierFmt}$`);

export const dns1123LabelMaxLength = 63;
export const dns1123SubdomainMaxLength = 253;
export const qualifiedNameMaxLength = 63;
export const labelValueMaxLength = 63;

const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const configMapKeyErrMsg =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const cIdentifierErrMsg =
  "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";

/** `must be no more than N characters`. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** `must be non-empty`. */
export const emptyError = "must be non-empty";

/** `must be between A and B, inclusive`. */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** apimachinery's `RegexError`: the message, examples (note the double space), and the regex. */
export function regexError(message: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${format}')`;
  const shown = examples.map((e) => `'${e}', `).join(" or ");
  return `${message} (e.g. ${shown}regex used for validation is '${format}')`;
}

/** RFC 1123 label: at most 63 lower-case alphanumerics or '-'. */
export function isDns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123LabelMaxLength) errs.push(maxLenError(dns1123LabelMaxLength));
  if (!dns1123LabelRe.test(value)) {
    errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, "my-name", "123-abc"));
  }
  return errs;
}

/** RFC 1123 subdomain: dot-separated labels, at most 253 characters. */
export function isDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!dns1123SubdomainRe.test(value)) {
    errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, "example.com"));
  }
  return errs;
}

const wildcardDns1123SubdomainFmt = `\\*\\.${dns1123SubdomainFmt}`;
const wildcardDns1123SubdomainRe = new RegExp(`^${wildcardDns1123SubdomainFmt}$`);
const wildcardDns1123SubdomainErrMsg =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";

/** `IsWildcardDNS1123Subdomain`: `*.` followed by an RFC 1123 subdomain (`*.example.com`). */
export function isWildcardDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!wildcardDns1123SubdomainRe.test(value)) {
    errs.push(
      regexError(wildcardDns1123SubdomainErrMsg, wildcardDns1123SubdomainFmt, "*.example.com"),
    );
  }
  return errs;
}

/** RFC 1035 label (service names): starts with a letter. */
export function isDns1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123LabelMaxLength) errs.push(maxLenError(dns1123LabelMaxLength));
  if (!dns1035LabelRe.test(value)) {
    errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, "my-name", "abc-123"));
  }
  return errs;
}

/**
 * Qualified names found valid: every object repeats the same few label and annotation keys, so
 * they are checked once (bounded; emptied when full). A pure memo of a pure function.
 */
const validQualifiedNames = new Set<string>();
const maxRememberedNames = 4096;

/** A qualified name (label keys, annotation keys, finalizers): `[prefix/]name`. */
export function isQualifiedName(value: string): string[] {
  if (validQualifiedNames.has(value)) return [];
  const errs = qualifiedNameErrors(value);
  if (errs.length === 0) {
    if (validQualifiedNames.size >= maxRememberedNames) validQualifiedNames.clear();
    validQualifiedNames.add(value);
  }
  return errs;
}

function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split("/");
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? "";
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? "";
    name = parts[1] ?? "";
    if (prefix.length === 0) {
      errs.push(`prefix part ${emptyError}`);
    } else {
      for (const msg of isDns1123Subdomain(prefix)) errs.push(`prefix part ${msg}`);
    }
  } else {
    return [
      `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) {
    errs.push(`name part ${emptyError}`);
  } else if (name.length > qualifiedNameMaxLength) {
    errs.push(`name part ${maxLenError(qualifiedNameMaxLength)}`);
  }
  if (!qualifiedNameRe.test(name)) {
    errs.push(
      `name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")}`,
    );
  }
  return errs;
}

/** A label value: empty, or at most 63 alphanumerics, '-', '_' or '.'. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > labelValueMaxLength) errs.push(maxLenError(labelValueMaxLength));
  if (!labelValueRe.test(value)) {
    errs.push(regexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"));
  }
  return errs;
}

/** A ConfigMap/Secret data key. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!configMapKeyRe.test(value)) {
    errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, "key.name", "KEY_NAME", "key-name"));
  }
  if (value === ".") errs.push("must not be '.'");
  else if (value === "..") errs.push("must not be '..'");
  else if (value.startsWith("..")) errs.push("must not start with '..'");
  return errs;
}

/** A C identifier (the prefix of `envFrom`, in older releases). */
export function isCIdentifier(value: string): string[] {
  return cIdentifierRe.test(value)
    ? []
    : [regexError(cIdentifierErrMsg, cIdentifierFmt, "my_name", "MY_NAME", "MyName")];
}

/** An environment variable name, as the (GA) relaxed rule: printable ASCII except '='. */
export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push(`environment variable name ${emptyError}`);
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || code > 0x7e || ch === "=") {
      errs.push(
        "a valid environment variable name must consist only of printable ASCII characters other than '='",
      );
      break;
    }
  }
  return errs;
}

/** An IANA_SVC_NAME port name: at most 15 characters, a letter, no double or edge hyphens. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) {
    errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  }
  if (!/[a-z]/.test(port)) errs.push("must contain at least one letter (a-z)");
  if (port.includes("--")) errs.push("must not contain consecutive hyphens");
  if (port.length > 0 && (port.startsWith("-") || port.endsWith("-"))) {
    errs.push("must not begin or end with a hyphen");
  }
  return errs;
}

/** A TCP/UDP port number, 1 to 65535. */
export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535
    ? []
    : [inclusiveRangeError(1, 65535)];
}

/** A name that can appear in a URL path segment: not `.`/`..`, no `/` or `%`. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const illegal of ["/", "%"]) {
    if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  }
  return errs;
}

/**
 * `generateName` is validated as a name with its trailing dash replaced, since the server
 * appends random characters to it (apimachinery's `MaskTrailingDash`).
 */
export function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith("-") ? `${name.slice(0, -1)}a` : name;
}
