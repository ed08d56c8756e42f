/**
 * The PodSecurity plugin's configuration: upstream's `PodSecurityConfiguration`
 * (`pod-security.admission.config.k8s.io/v1`), with its defaulting and validation.
 */
import {
  duplicate,
  type FieldError,
  FieldPath,
  invalid,
  isDns1123Label,
  isDns1123Subdomain,
  required,
} from "../../../../api/index.ts";
import {
  invalidLevelMessage,
  invalidVersionMessage,
  type LevelVersion,
  latest,
  type Policy,
  parseLevel,
  parseVersion,
} from "./levels.ts";

/** Who and what PodSecurity never checks. */
export interface PodSecurityExemptions {
  /** Authenticated usernames whose requests are not checked. */
  readonly usernames: readonly string[];
  /** Pods (and templates) with one of these `runtimeClassName`s are not checked. */
  readonly runtimeClasses: readonly string[];
  /** Namespaces whose pods and workloads are not checked. */
  readonly namespaces: readonly string[];
}

export interface PodSecurityConfiguration {
  /** The policy of a namespace without PodSecurity labels (and of each label it lacks). */
  readonly defaults: Policy;
  readonly exemptions: PodSecurityExemptions;
}

const privilegedLatest: LevelVersion = { level: "privileged", version: latest };

/** Upstream's defaults: privileged at every mode, no exemptions. */
export const defaultPodSecurityConfiguration: PodSecurityConfiguration = {
  defaults: { enforce: privilegedLatest, audit: privilegedLatest, warn: privilegedLatest },
  exemptions: { usernames: [], runtimeClasses: [], namespaces: [] },
};

const apiVersions = [
  "pod-security.admission.config.k8s.io/v1",
  "pod-security.admission.config.k8s.io/v1beta1",
  "pod-security.admission.config.k8s.io/v1alpha1",
];

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * Decodes and validates a PodSecurityConfiguration object (as read from the admission
 * configuration file). Unset defaults are `privileged`/`latest`, as upstream defaults them.
 * Errors carry upstream's field paths (`defaults.enforce`, `exemptions.namespaces[0]`).
 */
export function parsePodSecurityConfiguration(
  value: unknown,
): { readonly configuration: PodSecurityConfiguration } | { readonly errors: FieldError[] } {
  const errors: FieldError[] = [];
  const obj = record(value);
  if (!apiVersions.includes(String(obj["apiVersion"] ?? ""))) {
    errors.push(
      invalid(
        FieldPath.of("apiVersion"),
        obj["apiVersion"] ?? "",
        `must be one of ${apiVersions.join(", ")}`,
      ),
    );
  }
  if (obj["kind"] !== "PodSecurityConfiguration") {
    errors.push(
      invalid(FieldPath.of("kind"), obj["kind"] ?? "", "must be PodSecurityConfiguration"),
    );
  }
  const defaults = record(obj["defaults"]);
  const mode = (name: "enforce" | "audit" | "warn"): LevelVersion => {
    const levelText = String(defaults[name] ?? "privileged");
    const versionText = String(defaults[`${name}-version`] ?? "latest");
    const level = parseLevel(levelText);
    const version = parseVersion(versionText);
    if (level === undefined) {
      errors.push(invalid(FieldPath.of("defaults", name), levelText, invalidLevelMessage));
    }
    if (version === undefined) {
      errors.push(
        invalid(FieldPath.of("defaults", `${name}-version`), versionText, invalidVersionMessage),
      );
    }
    return { level: level ?? "privileged", version: version ?? latest };
  };
  // Upstream validates enforce, warn, then audit.
  const enforce = mode("enforce");
  const warn = mode("warn");
  const audit = mode("audit");
  const exemptions = record(obj["exemptions"]);
  const names = (
    field: "namespaces" | "runtimeClasses" | "usernames",
    check: (name: string, path: FieldPath) => FieldError | undefined,
  ): string[] => {
    const raw = exemptions[field];
    const seen = new Set<string>();
    (Array.isArray(raw) ? raw.map(String) : []).forEach((name, i) => {
      const path = FieldPath.of("exemptions", field).index(i);
      const problem = check(name, path);
      if (problem !== undefined) errors.push(problem);
      else if (seen.has(name)) errors.push(duplicate(path, name));
      else seen.add(name);
    });
    return [...seen];
  };
  const dnsName =
    (rule: (name: string) => string[]) =>
    (name: string, path: FieldPath): FieldError | undefined => {
      const problems = rule(name);
      return problems.length === 0 ? undefined : invalid(path, name, problems.join(", "));
    };
  const namespaces = names("namespaces", dnsName(isDns1123Label));
  const runtimeClasses = names("runtimeClasses", dnsName(isDns1123Subdomain));
  const usernames = names("usernames", (name, path) => (name === "" ? required(path) : undefined));
  if (errors.length > 0) return { errors };
  return {
    configuration: {
      defaults: { enforce, audit, warn },
      exemptions: { usernames, runtimeClasses, namespaces },
    },
  };
}
