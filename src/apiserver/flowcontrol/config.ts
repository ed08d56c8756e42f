import type { UserInfo } from "../admission/index.ts";
import type { RequestInfo } from "../http/request-info.ts";

/**
 * The built-in API Priority and Fairness configuration: upstream's mandatory and suggested
 * PriorityLevelConfigurations and FlowSchemas (apiserver/pkg/apis/flowcontrol/bootstrap), with
 * the same names, shares, queuing and matching precedence, less the schemas for components
 * gantry does not have, plus one for gantry's queueing component (Kueue's identity).
 */

/** A priority level: its share of the server's seats and how it queues. */
export interface PriorityLevel {
  readonly name: string;
  /** Exempt levels are never limited (upstream's `exempt`). */
  readonly exempt: boolean;
  /** Share of the server's concurrency limit, against the sum over limited levels. */
  readonly nominalConcurrencyShares: number;
  /** How requests wait; undefined rejects at once when every seat is taken (`Reject`). */
  readonly queuing?: {
    readonly queues: number;
    readonly handSize: number;
    readonly queueLengthLimit: number;
  };
}

/** Who a rule applies to (upstream's `Subject`): a user, a group or a ServiceAccount. */
export type Subject =
  | { readonly kind: "User"; readonly name: string }
  | { readonly kind: "Group"; readonly name: string }
  | { readonly kind: "ServiceAccount"; readonly namespace: string; readonly name: string };

/** Resource requests a rule applies to; `*` matches any value. */
export interface ResourceRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  /** Namespaces of namespaced requests (`*`: every namespace). */
  readonly namespaces: readonly string[];
  /** Whether requests without a namespace (cluster-scoped, all-namespace lists) match. */
  readonly clusterScope: boolean;
}

/** Non-resource requests a rule applies to; a URL ending in `*` matches the paths below it. */
export interface NonResourceRule {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/** Subjects plus the requests of theirs a flow schema takes. */
export interface PolicyRules {
  readonly subjects: readonly Subject[];
  readonly resourceRules: readonly ResourceRule[];
  readonly nonResourceRules: readonly NonResourceRule[];
}

/** A flow schema: which requests go to which priority level, and how they split into flows. */
export interface FlowSchema {
  readonly name: string;
  readonly priorityLevel: string;
  /** Lower matches first. */
  readonly matchingPrecedence: number;
  /** What tells flows apart; undefined puts every request of the schema in one flow. */
  readonly distinguisher?: "ByUser" | "ByNamespace";
  readonly rules: readonly PolicyRules[];
}

const all = ["*"] as const;
const everything: Pick<PolicyRules, "resourceRules" | "nonResourceRules"> = {
  resourceRules: [
    { verbs: all, apiGroups: all, resources: all, namespaces: all, clusterScope: true },
  ],
  nonResourceRules: [{ verbs: all, nonResourceURLs: all }],
};
const group = (name: string): Subject => ({ kind: "Group", name });
const user = (name: string): Subject => ({ kind: "User", name });
const kubeSystemServiceAccounts: Subject = {
  kind: "ServiceAccount",
  namespace: "kube-system",
  name: "*",
};
const leaderElection = ["get", "create", "update"];

/** The built-in priority levels, as upstream's defaults. */
export const defaultPriorityLevels: readonly PriorityLevel[] = [
  { name: "exempt", exempt: true, nominalConcurrencyShares: 0 },
  limited("system", 30, 64, 6),
  limited("node-high", 40, 64, 6),
  limited("leader-election", 10, 16, 4),
  limited("workload-high", 40, 128, 6),
  limited("workload-low", 100, 128, 6),
  limited("global-default", 20, 128, 6),
  { name: "catch-all", exempt: false, nominalConcurrencyShares: 5 },
];

function limited(name: string, shares: number, queues: number, handSize: number): PriorityLevel {
  return {
    name,
    exempt: false,
    nominalConcurrencyShares: shares,
    queuing: { queues, handSize, queueLengthLimit: 50 },
  };
}

/** The built-in flow schemas, in upstream's matching precedence. */
export const defaultFlowSchemas: readonly FlowSchema[] = [
  {
    name: "exempt",
    priorityLevel: "exempt",
    matchingPrecedence: 1,
    rules: [{ subjects: [group("system:masters")], ...everything }],
  },
  {
    name: "probes",
    priorityLevel: "exempt",
    matchingPrecedence: 2,
    rules: [
      {
        subjects: [group("system:unauthenticated"), group("system:authenticated")],
        resourceRules: [],
        nonResourceRules: [{ verbs: ["get"], nonResourceURLs: ["/healthz", "/readyz", "/livez"] }],
      },
    ],
  },
  {
    name: "system-leader-election",
    priorityLevel: "leader-election",
    matchingPrecedence: 100,
    distinguisher: "ByUser",
    rules: [
      {
        subjects: [
          user("system:kube-controller-manager"),
          user("system:kube-scheduler"),
          kubeSystemServiceAccounts,
        ],
        resourceRules: [
          {
            verbs: leaderElection,
            apiGroups: [""],
            resources: ["endpoints", "configmaps"],
            namespaces: ["kube-system"],
            clusterScope: false,
          },
          {
            verbs: leaderElection,
            apiGroups: ["coordination.k8s.io"],
            resources: ["leases"],
            namespaces: all,
            clusterScope: false,
          },
        ],
        nonResourceRules: [],
      },
    ],
  },
  {
    name: "workload-leader-election",
    priorityLevel: "leader-election",
    matchingPrecedence: 200,
    distinguisher: "ByUser",
    rules: [
      {
        subjects: [kubeSystemServiceAccounts],
        resourceRules: [
          {
            verbs: leaderElection,
            apiGroups: ["coordination.k8s.io"],
            resources: ["leases"],
            namespaces: all,
            clusterScope: false,
          },
        ],
        nonResourceRules: [],
      },
    ],
  },
  {
    name: "system-node-high",
    priorityLevel: "node-high",
    matchingPrecedence: 400,
    distinguisher: "ByUser",
    rules: [
      {
        subjects: [group("system:nodes")],
        resourceRules: [
          {
            verbs: all,
            apiGroups: [""],
            resources: ["nodes", "nodes/status"],
            namespaces: all,
            clusterScope: true,
          },
          {
            verbs: all,
            apiGroups: ["coordination.k8s.io"],
            resources: ["leases"],
            namespaces: all,
            clusterScope: false,
          },
        ],
        nonResourceRules: [],
      },
    ],
  },
  {
    name: "system-nodes",
    priorityLevel: "system",
    matchingPrecedence: 500,
    distinguisher: "ByUser",
    rules: [{ subjects: [group("system:nodes")], ...everything }],
  },
  {
    name: "kube-controller-manager",
    priorityLevel: "workload-high",
    matchingPrecedence: 800,
    distinguisher: "ByNamespace",
    rules: [{ subjects: [user("system:kube-controller-manager")], ...everything }],
  },
  {
    name: "kube-scheduler",
    priorityLevel: "workload-high",
    matchingPrecedence: 800,
    distinguisher: "ByNamespace",
    rules: [{ subjects: [user("system:kube-scheduler")], ...everything }],
  },
  {
    // gantry's own: the queueing component (Kueue's controller manager identity) is a system
    // component here, as the scheduler is.
    name: "kueue-controller-manager",
    priorityLevel: "workload-high",
    matchingPrecedence: 850,
    distinguisher: "ByNamespace",
    rules: [
      {
        subjects: [
          { kind: "ServiceAccount", namespace: "kueue-system", name: "kueue-controller-manager" },
        ],
        ...everything,
      },
    ],
  },
  {
    name: "kube-system-service-accounts",
    priorityLevel: "workload-high",
    matchingPrecedence: 900,
    distinguisher: "ByNamespace",
    rules: [{ subjects: [kubeSystemServiceAccounts], ...everything }],
  },
  {
    name: "service-accounts",
    priorityLevel: "workload-low",
    matchingPrecedence: 9000,
    distinguisher: "ByUser",
    rules: [{ subjects: [group("system:serviceaccounts")], ...everything }],
  },
  {
    name: "global-default",
    priorityLevel: "global-default",
    matchingPrecedence: 9900,
    distinguisher: "ByUser",
    rules: [
      {
        subjects: [group("system:unauthenticated"), group("system:authenticated")],
        ...everything,
      },
    ],
  },
  {
    name: "catch-all",
    priorityLevel: "catch-all",
    matchingPrecedence: 10000,
    distinguisher: "ByUser",
    rules: [
      {
        subjects: [group("system:unauthenticated"), group("system:authenticated")],
        ...everything,
      },
    ],
  },
];

const serviceAccountPrefix = "system:serviceaccount:";

/** Whether `subject` names the user (upstream's `matchesSubject`). */
export function matchesSubject(subject: Subject, who: UserInfo): boolean {
  switch (subject.kind) {
    case "User":
      return subject.name === "*" || subject.name === who.username;
    case "Group":
      return subject.name === "*" || who.groups.includes(subject.name);
    case "ServiceAccount": {
      if (!who.username.startsWith(serviceAccountPrefix)) return false;
      const rest = who.username.slice(serviceAccountPrefix.length);
      const colon = rest.indexOf(":");
      if (colon < 0) return false;
      return (
        rest.slice(0, colon) === subject.namespace &&
        (subject.name === "*" || rest.slice(colon + 1) === subject.name)
      );
    }
  }
}

/** Whether the rules' resource or non-resource part takes the request (subjects aside). */
export function matchesRequest(rules: PolicyRules, info: RequestInfo): boolean {
  if (info.kind === "nonResource") {
    return rules.nonResourceRules.some(
      (rule) =>
        matches(rule.verbs, info.verb) &&
        rule.nonResourceURLs.some((url) => nonResourceURLMatches(url, info.path)),
    );
  }
  return rules.resourceRules.some(
    (rule) =>
      matches(rule.verbs, info.verb) &&
      matches(rule.apiGroups, info.group) &&
      matches(rule.resources, resourceOf(info)) &&
      (info.namespace === "" ? rule.clusterScope : matches(rule.namespaces, info.namespace)),
  );
}

/** `pods`, or `pods/status` for a subresource (upstream matches resource and subresource alike). */
function resourceOf(info: Extract<RequestInfo, { kind: "resource" }>): string {
  if (info.subresource === "") return info.resource;
  const slash = info.subresource.indexOf("/");
  return `${info.resource}/${slash < 0 ? info.subresource : info.subresource.slice(0, slash)}`;
}

function matches(values: readonly string[], value: string): boolean {
  return values.includes(value) || values.includes("*");
}

/** Upstream's `matchPolicyRuleNonResourceURL`: exact, `*`, or a `prefix*` covering `prefix/…`. */
function nonResourceURLMatches(pattern: string, path: string): boolean {
  if (pattern === "*" || pattern === path) return true;
  if (!pattern.endsWith("*")) return false;
  const prefix = pattern.slice(0, -1);
  return path.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
}
