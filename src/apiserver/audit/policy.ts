import { parse as parseYaml } from "yaml";
import {
  type FieldError,
  FieldPath,
  fieldErrorString,
  invalid,
  isDns1123Subdomain,
  notSupported,
  required,
} from "../../api/index.ts";
import { errorMessage, isPlainObject } from "../../util/index.ts";
import type { UserInfo } from "../admission/index.ts";
import type { RequestInfo } from "../http/request-info.ts";

/** How much of a request an audit event records (audit.k8s.io/v1 `Level`), least first. */
export type AuditLevel = "None" | "Metadata" | "Request" | "RequestResponse";

/** When in a request's life an event is written (audit.k8s.io/v1 `Stage`). */
export type AuditStage = "RequestReceived" | "ResponseStarted" | "ResponseComplete" | "Panic";

export const auditLevels: readonly AuditLevel[] = [
  "None",
  "Metadata",
  "Request",
  "RequestResponse",
];
export const auditStages: readonly AuditStage[] = [
  "RequestReceived",
  "ResponseStarted",
  "ResponseComplete",
  "Panic",
];

/** Resources a rule applies to, in one API group (`""` is the core group). */
export interface GroupResources {
  readonly group: string;
  /**
   * `pods`, `pods/log`, `pods/*` (pods and all its subresources), `*`, or a star, a slash and a
   * subresource name (that subresource of any resource); empty: every resource of the group.
   */
  readonly resources: readonly string[];
  /** Object names; empty: any. */
  readonly resourceNames: readonly string[];
}

/** One rule of a policy; empty lists match everything. */
export interface AuditPolicyRule {
  readonly level: AuditLevel;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  /** `""` matches cluster-scoped requests. */
  readonly namespaces: readonly string[];
  /** Paths, or prefixes ending in `*`. */
  readonly nonResourceURLs: readonly string[];
  /** The rule's own stages plus the policy's (upstream's checker unions them up front). */
  readonly omitStages: readonly AuditStage[];
  /** The rule's setting; undefined: the policy's. */
  readonly omitManagedFields?: boolean;
}

/** An audit.k8s.io/v1 Policy: rules in order, the first that matches decides. */
export interface AuditPolicy {
  readonly rules: readonly AuditPolicyRule[];
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

/** What the policy decided for one request (upstream's `RequestAuditConfig`). */
export interface RequestAuditConfig {
  readonly level: AuditLevel;
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

/** The request as a policy sees it (upstream's authorizer attributes). */
export interface PolicyAttributes {
  /** Undefined when authentication failed. */
  readonly user: UserInfo | undefined;
  readonly info: RequestInfo;
}

const policyFields = new Set([
  "apiVersion",
  "kind",
  "metadata",
  "rules",
  "omitStages",
  "omitManagedFields",
]);
const ruleFields = new Set([
  "level",
  "users",
  "userGroups",
  "verbs",
  "resources",
  "namespaces",
  "nonResourceURLs",
  "omitStages",
  "omitManagedFields",
]);
const groupResourceFields = new Set(["group", "resources", "resourceNames"]);

/**
 * Parses and validates an audit policy file's text as kube-apiserver's `--audit-policy-file`
 * loader does: audit.k8s.io/v1 Policy, upstream's validation messages, at least one rule.
 * Unlike upstream's lenient decoder, an unknown field is an error (a misspelt field would
 * otherwise silently change what is audited). Throws TypeError whose message ends in
 * `: from file <file>`, as upstream's.
 */
export function parseAuditPolicy(text: string, file: string): AuditPolicy {
  const fail = (message: string): never => {
    throw new TypeError(`${message}: from file ${file}`);
  };
  let raw: unknown;
  try {
    raw = parseYaml(text, { uniqueKeys: true, maxAliasCount: 100 });
  } catch (error: unknown) {
    return fail(`failed decoding: ${errorMessage(error).split("\n")[0] ?? ""}`);
  }
  if (!isPlainObject(raw)) return fail("failed decoding: the policy must be a YAML or JSON object");
  const apiVersion = raw["apiVersion"];
  const kind = raw["kind"];
  if (apiVersion === undefined || kind === undefined) {
    return fail(
      "failed decoding: Object 'apiVersion' and 'kind' must be set (audit.k8s.io/v1, Policy)",
    );
  }
  if (apiVersion !== "audit.k8s.io/v1" || kind !== "Policy") {
    return fail(
      `unknown group version field ${String(apiVersion)}, Kind=${String(kind)} in policy: use apiVersion audit.k8s.io/v1 and kind Policy`,
    );
  }
  const decodeErrors: string[] = [];
  const errors: FieldError[] = [];
  unknownFields(raw, policyFields, "", decodeErrors);
  const rulesPath = FieldPath.of("rules");
  const policyOmit = stages(raw["omitStages"], FieldPath.of("omitStages"), decodeErrors, errors);
  const omitManagedFields = optionalBool(
    raw["omitManagedFields"],
    "omitManagedFields",
    decodeErrors,
  );
  const rawRules = raw["rules"] ?? [];
  if (!Array.isArray(rawRules)) decodeErrors.push("rules: must be a list of rules");
  const rules = (Array.isArray(rawRules) ? rawRules : []).map((rawRule: unknown, i) =>
    parseRule(rawRule, rulesPath.index(i), policyOmit, decodeErrors, errors),
  );
  if (decodeErrors.length > 0) fail(`failed decoding: ${decodeErrors.join("; ")}`);
  if (errors.length > 0) fail(aggregate(errors));
  if (rules.length === 0) fail("loaded illegal policy with 0 rules");
  return { rules, omitStages: policyOmit, omitManagedFields: omitManagedFields ?? false };
}

/** Several errors print as `[a, b]`, as apimachinery's aggregate does. */
function aggregate(errors: readonly FieldError[]): string {
  const texts = errors.map(fieldErrorString);
  return texts.length === 1 ? (texts[0] ?? "") : `[${texts.join(", ")}]`;
}

function parseRule(
  raw: unknown,
  path: FieldPath,
  policyOmit: readonly AuditStage[],
  decodeErrors: string[],
  errors: FieldError[],
): AuditPolicyRule {
  if (!isPlainObject(raw)) {
    decodeErrors.push(`${path.toString()}: must be an object`);
    return emptyRule;
  }
  unknownFields(raw, ruleFields, path.toString(), decodeErrors);
  const level = raw["level"];
  const levelPath = path.child("level");
  if (level === undefined || level === "") errors.push(required(levelPath));
  else if (typeof level !== "string" || !(auditLevels as readonly unknown[]).includes(level)) {
    errors.push(notSupported(levelPath, level, auditLevels));
  }
  const list = (field: string) => strings(raw[field], `${path.toString()}.${field}`, decodeErrors);
  const nonResourceURLs = list("nonResourceURLs");
  nonResourceURLs.forEach((url, i) => {
    const at = path.child("nonResourceURLs").index(i);
    if (url === "*") return;
    if (!url.startsWith("/")) {
      errors.push(invalid(at, url, "non-resource URL rules must begin with a '/' character"));
    }
    if (url !== "" && url.slice(0, -1).includes("*")) {
      errors.push(
        invalid(at, url, "non-resource URL wildcards '*' must be the final character of the rule"),
      );
    }
  });
  const resources = groupResources(raw["resources"], path.child("resources"), decodeErrors, errors);
  const namespaces = list("namespaces");
  const ownOmit = stages(raw["omitStages"], path.child("omitStages"), decodeErrors, errors);
  if (nonResourceURLs.length > 0 && (resources.length > 0 || namespaces.length > 0)) {
    errors.push(
      invalid(
        path.child("nonResourceURLs"),
        nonResourceURLs,
        "rules cannot apply to both regular resources and non-resource URLs",
      ),
    );
  }
  const omitManagedFields = optionalBool(
    raw["omitManagedFields"],
    `${path.toString()}.omitManagedFields`,
    decodeErrors,
  );
  return {
    level: (auditLevels as readonly unknown[]).includes(level) ? (level as AuditLevel) : "None",
    users: list("users"),
    userGroups: list("userGroups"),
    verbs: list("verbs"),
    resources,
    namespaces,
    nonResourceURLs,
    omitStages: [...new Set([...policyOmit, ...ownOmit])],
    ...(omitManagedFields === undefined ? {} : { omitManagedFields }),
  };
}

const emptyRule: AuditPolicyRule = {
  level: "None",
  users: [],
  userGroups: [],
  verbs: [],
  resources: [],
  namespaces: [],
  nonResourceURLs: [],
  omitStages: [],
};

function groupResources(
  raw: unknown,
  path: FieldPath,
  decodeErrors: string[],
  errors: FieldError[],
): GroupResources[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    decodeErrors.push(`${path.toString()}: must be a list of {group, resources, resourceNames}`);
    return [];
  }
  return raw.map((entry: unknown, i): GroupResources => {
    const at = path.index(i);
    if (!isPlainObject(entry)) {
      decodeErrors.push(`${at.toString()}: must be an object`);
      return { group: "", resources: [], resourceNames: [] };
    }
    unknownFields(entry, groupResourceFields, at.toString(), decodeErrors);
    const group = entry["group"] ?? "";
    if (typeof group !== "string") decodeErrors.push(`${at.toString()}.group: must be a string`);
    const groupName = typeof group === "string" ? group : "";
    if (groupName !== "") {
      const messages = isDns1123Subdomain(groupName);
      if (messages.length > 0)
        errors.push(invalid(path.child("group"), groupName, messages.join(",")));
    }
    const resources = strings(entry["resources"], `${at.toString()}.resources`, decodeErrors);
    const resourceNames = strings(
      entry["resourceNames"],
      `${at.toString()}.resourceNames`,
      decodeErrors,
    );
    if (resourceNames.length > 0 && resources.length === 0) {
      errors.push(
        invalid(
          path.child("resourceNames"),
          resourceNames,
          "using resourceNames requires at least one resource",
        ),
      );
    }
    return { group: groupName, resources, resourceNames };
  });
}

function stages(
  raw: unknown,
  path: FieldPath,
  decodeErrors: string[],
  errors: FieldError[],
): AuditStage[] {
  const values = strings(raw, path.toString(), decodeErrors);
  const valid: AuditStage[] = [];
  values.forEach((stage, i) => {
    if ((auditStages as readonly string[]).includes(stage)) valid.push(stage as AuditStage);
    else {
      errors.push(invalid(path.index(i), stage, `allowed stages are ${auditStages.join(",")}`));
    }
  });
  return valid;
}

function strings(raw: unknown, path: string, decodeErrors: string[]): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || !raw.every((v) => typeof v === "string")) {
    decodeErrors.push(`${path}: must be a list of strings`);
    return [];
  }
  return raw as string[];
}

function optionalBool(raw: unknown, path: string, decodeErrors: string[]): boolean | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== "boolean") {
    decodeErrors.push(`${path}: must be true or false`);
    return undefined;
  }
  return raw;
}

function unknownFields(
  raw: Record<string, unknown>,
  known: ReadonlySet<string>,
  path: string,
  decodeErrors: string[],
): void {
  for (const field of Object.keys(raw)) {
    if (!known.has(field)) {
      decodeErrors.push(
        `strict decoding error: unknown field ${JSON.stringify(path === "" ? field : `${path}.${field}`)}`,
      );
    }
  }
}

/**
 * The level and stages the policy gives a request: the first rule that matches decides
 * (upstream's `EvaluatePolicyRule`); none matching is level None with the policy's stages.
 */
export function evaluatePolicy(
  policy: AuditPolicy,
  attributes: PolicyAttributes,
): RequestAuditConfig {
  for (const rule of policy.rules) {
    if (ruleMatches(rule, attributes)) {
      return {
        level: rule.level,
        omitStages: rule.omitStages,
        omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields,
      };
    }
  }
  return {
    level: "None",
    omitStages: policy.omitStages,
    omitManagedFields: policy.omitManagedFields,
  };
}

/** Upstream's `ruleMatches`. */
export function ruleMatches(rule: AuditPolicyRule, { user, info }: PolicyAttributes): boolean {
  if (rule.users.length > 0 && (user === undefined || !rule.users.includes(user.username))) {
    return false;
  }
  if (
    rule.userGroups.length > 0 &&
    (user === undefined || !user.groups.some((g) => rule.userGroups.includes(g)))
  ) {
    return false;
  }
  if (rule.verbs.length > 0 && !rule.verbs.includes(info.verb)) return false;
  if (rule.namespaces.length > 0 || rule.resources.length > 0) {
    return resourceMatches(rule, info);
  }
  if (rule.nonResourceURLs.length > 0) {
    return (
      info.kind === "nonResource" &&
      rule.nonResourceURLs.some((spec) => pathMatches(info.path, spec))
    );
  }
  return true;
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === "*" || spec === path) return true;
  return spec.endsWith("*") && path.startsWith(spec.replace(/\*+$/, ""));
}

function resourceMatches(rule: AuditPolicyRule, info: RequestInfo): boolean {
  if (info.kind !== "resource") return false;
  if (rule.namespaces.length > 0 && !rule.namespaces.includes(info.namespace)) return false;
  if (rule.resources.length === 0) return true;
  const subresource = firstSegment(info.subresource);
  const combined = subresource === "" ? info.resource : `${info.resource}/${subresource}`;
  for (const gr of rule.resources) {
    if (gr.group !== info.group) continue;
    if (gr.resources.length === 0) return true;
    if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(info.name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === "*") return true;
      if (subresource !== "" && res.startsWith("*/") && res.slice(2) === subresource) return true;
      if (res.endsWith("/*") && res.slice(0, -2) === info.resource) return true;
    }
  }
  return false;
}

/** `proxy` of `proxy/metrics`: gantry keeps the rest of the path, upstream only the first part. */
export function firstSegment(subresource: string): string {
  const slash = subresource.indexOf("/");
  return slash < 0 ? subresource : subresource.slice(0, slash);
}
