/**
 * PolicyRule matching and coverage, as upstream's `rbacv1helpers` matchers (`RuleAllows`) and
 * `validation.Covers` / `CompactRules` for escalation checks.
 */
import type { PolicyRule } from "../../api/index.ts";
import type { Attributes } from "./attributes.ts";

const all = "*";

function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === all || v === verb);
}

function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === all || g === group);
}

/** `ResourceMatches`: all, `resource/subresource` exactly, or all resources' `subresource`. */
function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === all || r === combined) return true;
    if (subresource === "") continue;
    if (r.length === subresource.length + 2 && r.startsWith("*/") && r.endsWith(subresource)) {
      return true;
    }
  }
  return false;
}

function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** `NonResourceURLMatches`: all, the exact path, or a prefix ending in a star. */
function nonResourceUrlMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === all || url === path) return true;
    if (url.endsWith(all) && path.startsWith(url.slice(0, -1))) return true;
  }
  return false;
}

/** `RuleAllows`. */
export function ruleAllows(attributes: Attributes, rule: PolicyRule): boolean {
  if (attributes.kind === "nonResource") {
    return verbMatches(rule, attributes.verb) && nonResourceUrlMatches(rule, attributes.path);
  }
  const combined =
    attributes.subresource === ""
      ? attributes.resource
      : `${attributes.resource}/${attributes.subresource}`;
  return (
    verbMatches(rule, attributes.verb) &&
    apiGroupMatches(rule, attributes.apiGroup) &&
    resourceMatches(rule, combined, attributes.subresource) &&
    resourceNameMatches(rule, attributes.name)
  );
}

/**
 * `BreakdownRule`: one rule per group × resource × verb (× name), or per URL × verb, in the
 * rule's own order.
 */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        const names = rule.resourceNames ?? [];
        if (names.length === 0) {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        } else {
          for (const name of names) {
            out.push({
              apiGroups: [group],
              resources: [resource],
              verbs: [verb],
              resourceNames: [name],
            });
          }
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function hasAll(set: readonly string[], values: readonly string[]): boolean {
  return values.every((v) => set.includes(v));
}

function resourceCoversAll(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes(all) || hasAll(owner, wanted)) return true;
  return wanted.every((w) => {
    if (owner.includes(w)) return true;
    const slash = w.indexOf("/");
    return slash !== -1 && owner.includes(`*${w.slice(slash)}`);
  });
}

function nonResourceUrlsCoverAll(owner: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((w) =>
    owner.some((o) => o === w || (o.endsWith(all) && w.startsWith(o.slice(0, -1)))),
  );
}

/** `ruleCovers`: whether `owner` grants everything `sub` does. */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes(all) || hasAll(owner.verbs, sub.verbs);
  const groups =
    (owner.apiGroups ?? []).includes(all) || hasAll(owner.apiGroups ?? [], sub.apiGroups ?? []);
  const resources = resourceCoversAll(owner.resources ?? [], sub.resources ?? []);
  const urls = nonResourceUrlsCoverAll(owner.nonResourceURLs ?? [], sub.nonResourceURLs ?? []);
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const names =
    subNames.length === 0
      ? ownerNames.length === 0
      : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && names && urls;
}

/** `Covers`: whether `owner` covers every rule of `wanted`, and the broken-down rules it misses. */
export function covers(
  owner: readonly PolicyRule[],
  wanted: readonly PolicyRule[],
): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const rule of wanted) {
    for (const sub of breakdownRule(rule)) {
      if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
    }
  }
  return { covered: missing.length === 0, missing };
}

/**
 * `CompactRules`: simple rules (one group, one resource, at most one name, no URLs) that differ
 * only in verbs merge into one, verbs in the order met; other rules stay as they are.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const groups = rule.apiGroups ?? [];
    const resources = rule.resources ?? [];
    const isSimple =
      groups.length === 1 &&
      resources.length === 1 &&
      (rule.resourceNames ?? []).length <= 1 &&
      (rule.nonResourceURLs ?? []).length === 0;
    if (!isSimple) {
      out.push(rule);
      continue;
    }
    const names = rule.resourceNames ?? [];
    const key = `${groups[0]}\u0000${resources[0]}\u0000${names.length}\u0000${names[0] ?? ""}`;
    const existing = simple.get(key);
    if (existing === undefined) {
      const merged: PolicyRule = {
        apiGroups: [...groups],
        resources: [...resources],
        verbs: [...rule.verbs],
        ...(names.length === 0 ? {} : { resourceNames: [...names] }),
      };
      simple.set(key, merged);
      out.push(merged);
    } else {
      existing.verbs.push(...rule.verbs);
    }
  }
  return out;
}
