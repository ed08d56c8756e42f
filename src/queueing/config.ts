/**
 * The cluster config's `queueing:` section: which pods Kueue's plain-pod integration manages
 * (Kueue's `Configuration`: `manageJobsWithoutQueueName`, `managedJobsNamespaceSelector`,
 * `integrations.frameworks` and the deprecated `integrations.podOptions`), and how many pod keys
 * are reconciled at once (`controller.groupKindConcurrency`).
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
  /**
   * Kueue's `controller.groupKindConcurrency`: workers per controller, by group kind. `Pod`
   * sets how many pod and group keys the pod reconciler works on at once; the other kinds Kueue
   * names are accepted so that Kueue's own configuration reads unchanged, and change nothing
   * (gantry's Workload, queue and flavor bookkeeping runs in the admission loop, not in worker
   * pools). @default Kueue's shipped values: 5 for Job.batch, Pod and Workload, 1 for the rest
   */
  readonly groupKindConcurrency: Readonly<Record<GroupKind, number>>;
}

/** The group kinds of Kueue's `controller.groupKindConcurrency`. */
export const concurrencyGroupKinds = [
  "Job.batch",
  "Pod",
  "Workload.kueue.x-k8s.io",
  "LocalQueue.kueue.x-k8s.io",
  "Cohort.kueue.x-k8s.io",
  "ClusterQueue.kueue.x-k8s.io",
  "ResourceFlavor.kueue.x-k8s.io",
] as const;
export type GroupKind = (typeof concurrencyGroupKinds)[number];

/** Kueue's shipped `controller_manager_config.yaml`. */
const defaultGroupKindConcurrency: Readonly<Record<GroupKind, number>> = Object.freeze({
  "Job.batch": 5,
  Pod: 5,
  "Workload.kueue.x-k8s.io": 5,
  "LocalQueue.kueue.x-k8s.io": 1,
  "Cohort.kueue.x-k8s.io": 1,
  "ClusterQueue.kueue.x-k8s.io": 1,
  "ResourceFlavor.kueue.x-k8s.io": 1,
});

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
  groupKindConcurrency: defaultGroupKindConcurrency,
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
  "controller",
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
    groupKindConcurrency: groupKindConcurrency(section["controller"]),
  };
}

/** `controller.groupKindConcurrency` over Kueue's defaults; only that key of `controller`. */
function groupKindConcurrency(value: unknown): Readonly<Record<GroupKind, number>> {
  if (value === undefined) return defaultGroupKindConcurrency;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError("queueing.controller: must be a mapping");
  }
  const controller = value as Record<string, unknown>;
  for (const key of Object.keys(controller)) {
    if (key !== "groupKindConcurrency") {
      throw new TypeError(
        `queueing.controller.${key}: unknown field; known fields are groupKindConcurrency`,
      );
    }
  }
  const raw = controller["groupKindConcurrency"] ?? {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new TypeError("queueing.controller.groupKindConcurrency: must be a mapping");
  }
  const out: Record<string, number> = { ...defaultGroupKindConcurrency };
  for (const [kind, count] of Object.entries(raw)) {
    const path = `queueing.controller.groupKindConcurrency.${kind}`;
    if (!(concurrencyGroupKinds as readonly string[]).includes(kind)) {
      throw new TypeError(
        `${path}: unknown group kind; known group kinds are ${concurrencyGroupKinds.join(", ")}`,
      );
    }
    if (typeof count !== "number" || !Number.isInteger(count) || count < 1) {
      throw new TypeError(`${path}: must be a whole number of workers, at least 1`);
    }
    out[kind] = count;
  }
  return out as Record<GroupKind, number>;
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
