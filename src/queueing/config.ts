/**
 * The cluster config's `queueing:` section: which pods Kueue's plain-pod integration manages
 * (Kueue's `Configuration`: `manageJobsWithoutQueueName`, `managedJobsNamespaceSelector`,
 * `integrations.frameworks` and the deprecated `integrations.podOptions`).
 */
import type { LabelSelector } from "../api/index.ts";

/** The namespace Kueue runs in; excluded from management by default, as `kube-system` is. */
export const queueingSystemNamespace = "kueue-system";

export interface QueueingConfig {
  /** Run the queueing component and its pod webhook. @default true */
  readonly enabled: boolean;
  /** Manage pods without a `kueue.x-k8s.io/queue-name` label too. @default false */
  readonly manageJobsWithoutQueueName: boolean;
  /** Namespaces whose pods may be managed. @default NotIn [kube-system, kueue-system] */
  readonly managedJobsNamespaceSelector: LabelSelector;
  /** Kueue's deprecated `integrations.podOptions`; both must match when set. @default unset */
  readonly podOptions: {
    readonly namespaceSelector?: LabelSelector;
    readonly podSelector?: LabelSelector;
  };
  /** Enabled integrations; only `pod` is implemented. @default ["pod"] */
  readonly frameworks: readonly string[];
  /**
   * Also gang-schedule admitted pod groups created beforehand: their pods get a
   * `spec.workloadRef` to a PodGroup named after the group, which is created (with its
   * scheduling Workload, gang `minCount` = the group's size) when Kueue admits the group.
   * @default false
   */
  readonly gangScheduleAdmittedGroups: boolean;
}

export const defaultQueueingConfig: QueueingConfig = Object.freeze({
  enabled: true,
  manageJobsWithoutQueueName: false,
  managedJobsNamespaceSelector: {
    matchExpressions: [
      {
        key: "kubernetes.io/metadata.name",
        operator: "NotIn" as const,
        values: ["kube-system", queueingSystemNamespace],
      },
    ],
  },
  podOptions: {},
  frameworks: ["pod"],
  gangScheduleAdmittedGroups: false,
});

/** Kueue's integration names (`integrations.frameworks`) and the owner kinds they manage. */
export const knownFrameworks: Readonly<Record<string, string>> = Object.freeze({
  pod: "Pod",
  "batch/job": "Job",
  "jobset.x-k8s.io/jobset": "JobSet",
  "kubeflow.org/mpijob": "MPIJob",
  "ray.io/rayjob": "RayJob",
  "ray.io/raycluster": "RayCluster",
  deployment: "Deployment",
  statefulset: "StatefulSet",
  "leaderworkerset.x-k8s.io/leaderworkerset": "LeaderWorkerSet",
});

const fields = [
  "enabled",
  "manageJobsWithoutQueueName",
  "managedJobsNamespaceSelector",
  "podOptions",
  "frameworks",
  "gangScheduleAdmittedGroups",
] as const;

/**
 * Reads the raw `queueing:` section (`undefined` when the file has none). Absent keys take
 * `defaultQueueingConfig`. Throws a TypeError naming the offending key (`queueing.frameworks`).
 */
export function parseQueueingConfig(raw: unknown): QueueingConfig {
  if (raw === undefined || raw === null) return defaultQueueingConfig;
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new TypeError("queueing: must be a mapping");
  }
  const section = raw as Record<string, unknown>;
  for (const key of Object.keys(section)) {
    if (!(fields as readonly string[]).includes(key)) {
      throw new TypeError(`queueing.${key}: unknown field; known fields are ${fields.join(", ")}`);
    }
  }
  const bool = (key: string, fallback: boolean): boolean => {
    const value = section[key];
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") throw new TypeError(`queueing.${key}: must be true or false`);
    return value;
  };
  const frameworks = section["frameworks"] ?? defaultQueueingConfig.frameworks;
  if (!Array.isArray(frameworks) || frameworks.some((f) => typeof f !== "string")) {
    throw new TypeError("queueing.frameworks: must be a list of integration names");
  }
  for (const framework of frameworks as string[]) {
    if (knownFrameworks[framework] === undefined) {
      throw new TypeError(
        `queueing.frameworks: integration "${framework}" is not known; known integrations are ${Object.keys(knownFrameworks).join(", ")}`,
      );
    }
  }
  const podOptions = section["podOptions"] ?? {};
  if (typeof podOptions !== "object" || podOptions === null || Array.isArray(podOptions)) {
    throw new TypeError("queueing.podOptions: must be a mapping");
  }
  const options = podOptions as Record<string, unknown>;
  for (const key of Object.keys(options)) {
    if (key !== "namespaceSelector" && key !== "podSelector") {
      throw new TypeError(
        `queueing.podOptions.${key}: unknown field; known fields are namespaceSelector, podSelector`,
      );
    }
  }
  return {
    enabled: bool("enabled", defaultQueueingConfig.enabled),
    manageJobsWithoutQueueName: bool(
      "manageJobsWithoutQueueName",
      defaultQueueingConfig.manageJobsWithoutQueueName,
    ),
    managedJobsNamespaceSelector:
      selector(section["managedJobsNamespaceSelector"], "managedJobsNamespaceSelector") ??
      defaultQueueingConfig.managedJobsNamespaceSelector,
    podOptions: {
      ...optional(
        "namespaceSelector",
        selector(options["namespaceSelector"], "podOptions.namespaceSelector"),
      ),
      ...optional("podSelector", selector(options["podSelector"], "podOptions.podSelector")),
    },
    frameworks: [...(frameworks as string[])],
    gangScheduleAdmittedGroups: bool(
      "gangScheduleAdmittedGroups",
      defaultQueueingConfig.gangScheduleAdmittedGroups,
    ),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function selector(value: unknown, path: string): LabelSelector | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(
      `queueing.${path}: must be a label selector (matchLabels, matchExpressions)`,
    );
  }
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (key !== "matchLabels" && key !== "matchExpressions") {
      throw new TypeError(
        `queueing.${path}.${key}: unknown field; known fields are matchLabels, matchExpressions`,
      );
    }
  }
  return structuredClone(object) as LabelSelector;
}
