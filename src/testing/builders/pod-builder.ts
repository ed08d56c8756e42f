/**
 * `makePod("p")`: a fluent Pod fixture in the spirit of upstream's `st.MakePod()`. Every method
 * edits the builder and returns it; `obj()` returns a fresh deep copy, `clone()` a builder to vary.
 */
import type {
  Affinity,
  Container,
  LabelSelector,
  NodeAffinity,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  OwnerReference,
  Pod,
  PodAffinity,
  PodAffinityTerm,
  PodCondition,
  ResourceList,
  Toleration,
  TopologySpreadConstraint,
} from "../../api/index.ts";

/** Options of `PodBuilder.podAffinity` and friends. */
export interface AffinityTermOptions {
  /** `matchLabels` of the term's label selector. */
  readonly matchLabels?: Record<string, string>;
  /** The full label selector (overrides `matchLabels`). */
  readonly labelSelector?: LabelSelector;
  readonly namespaces?: string[];
  readonly namespaceSelector?: LabelSelector;
}

export class PodBuilder {
  #pod: Pod;

  constructor(pod: Pod) {
    this.#pod = pod;
  }

  /** A builder holding a copy of this one's pod. */
  clone(): PodBuilder {
    return new PodBuilder(structuredClone(this.#pod));
  }

  /** A deep copy of the pod built so far. */
  obj(): Pod {
    return structuredClone(this.#pod);
  }

  name(name: string): this {
    this.#pod.metadata.name = name;
    return this;
  }

  namespace(namespace: string): this {
    this.#pod.metadata.namespace = namespace;
    return this;
  }

  uid(uid: string): this {
    this.#pod.metadata.uid = uid;
    return this;
  }

  label(key: string, value: string): this {
    this.#pod.metadata.labels = { ...this.#pod.metadata.labels, [key]: value };
    return this;
  }

  labels(labels: Record<string, string>): this {
    this.#pod.metadata.labels = { ...this.#pod.metadata.labels, ...labels };
    return this;
  }

  annotation(key: string, value: string): this {
    this.#pod.metadata.annotations = { ...this.#pod.metadata.annotations, [key]: value };
    return this;
  }

  creationTimestamp(time: string): this {
    this.#pod.metadata.creationTimestamp = time;
    return this;
  }

  ownerReference(owner: OwnerReference): this {
    this.#pod.metadata.ownerReferences = [...(this.#pod.metadata.ownerReferences ?? []), owner];
    return this;
  }

  /** Marks the pod as being deleted. */
  terminating(time = "2026-01-01T00:00:00Z"): this {
    this.#pod.metadata.deletionTimestamp = time;
    return this;
  }

  #firstContainer(): Container {
    let first = this.#pod.spec.containers[0];
    if (first === undefined) {
      first = { name: "c", image: "pause" };
      this.#pod.spec.containers.push(first);
    }
    return first;
  }

  /** Sets the first container's requests (creating the container if needed). */
  requests(requests: ResourceList): this {
    const c = this.#firstContainer();
    c.resources = { ...c.resources, requests: { ...requests } };
    return this;
  }

  /** Sets the first container's limits (creating the container if needed). */
  limits(limits: ResourceList): this {
    const c = this.#firstContainer();
    c.resources = { ...c.resources, limits: { ...limits } };
    return this;
  }

  /** Adds a container with the given requests. */
  container(requests: ResourceList = {}, name?: string): this {
    const containers = this.#pod.spec.containers;
    containers.push({
      name: name ?? `c${containers.length}`,
      image: "pause",
      resources: { requests: { ...requests } },
    });
    return this;
  }

  /** Adds an init container; `sidecar` makes it restartable (`restartPolicy: Always`). */
  initContainer(requests: ResourceList, options: { sidecar?: boolean; name?: string } = {}): this {
    const inits = this.#pod.spec.initContainers ?? [];
    const container: Container = {
      name: options.name ?? `init${inits.length}`,
      image: "pause",
      resources: { requests: { ...requests } },
    };
    if (options.sidecar === true) container.restartPolicy = "Always";
    this.#pod.spec.initContainers = [...inits, container];
    return this;
  }

  /** Pod-level requests (`spec.resources.requests`). */
  podRequests(requests: ResourceList): this {
    this.#pod.spec.resources = { ...this.#pod.spec.resources, requests: { ...requests } };
    return this;
  }

  overhead(overhead: ResourceList): this {
    this.#pod.spec.overhead = { ...overhead };
    return this;
  }

  /** A host port on the first container. */
  hostPort(port: number, protocol: "TCP" | "UDP" | "SCTP" = "TCP", hostIP?: string): this {
    const c = this.#firstContainer();
    c.ports = [
      ...(c.ports ?? []),
      {
        containerPort: port,
        hostPort: port,
        protocol,
        ...(hostIP === undefined ? {} : { hostIP }),
      },
    ];
    return this;
  }

  toleration(toleration: Toleration): this {
    this.#pod.spec.tolerations = [...(this.#pod.spec.tolerations ?? []), { ...toleration }];
    return this;
  }

  #affinity(): Affinity {
    const affinity = this.#pod.spec.affinity ?? {};
    this.#pod.spec.affinity = affinity;
    return affinity;
  }

  #nodeAffinity(): NodeAffinity {
    const affinity = this.#affinity();
    const nodeAffinity = affinity.nodeAffinity ?? {};
    affinity.nodeAffinity = nodeAffinity;
    return nodeAffinity;
  }

  #podAffinity(anti: boolean): PodAffinity {
    const affinity = this.#affinity();
    const pa = (anti ? affinity.podAntiAffinity : affinity.podAffinity) ?? {};
    if (anti) affinity.podAntiAffinity = pa;
    else affinity.podAffinity = pa;
    return pa;
  }

  nodeSelector(selector: Record<string, string>): this {
    this.#pod.spec.nodeSelector = { ...selector };
    return this;
  }

  /** Appends a required node selector term (terms are ORed). */
  requiredNodeAffinityTerm(term: NodeSelectorTerm): this {
    const nodeAffinity = this.#nodeAffinity();
    const required = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution ?? {
      nodeSelectorTerms: [],
    };
    required.nodeSelectorTerms.push(structuredClone(term));
    nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = required;
    return this;
  }

  /** A required term with one `In` expression: `key in (values)`. */
  nodeAffinityIn(key: string, values: string[]): this {
    return this.requiredNodeAffinityTerm({
      matchExpressions: [{ key, operator: "In", values: [...values] }],
    });
  }

  /** A required term selecting nodes by name through `matchFields`. */
  nodeAffinityNames(names: string[]): this {
    const fields: NodeSelectorRequirement[] = names.map((n) => ({
      key: "metadata.name",
      operator: "In",
      values: [n],
    }));
    return this.requiredNodeAffinityTerm({ matchFields: fields });
  }

  preferredNodeAffinity(weight: number, preference: NodeSelectorTerm): this {
    const nodeAffinity = this.#nodeAffinity();
    nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution = [
      ...(nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution ?? []),
      { weight, preference: structuredClone(preference) },
    ];
    return this;
  }

  #term(topologyKey: string, options: AffinityTermOptions): PodAffinityTerm {
    const term: PodAffinityTerm = {
      topologyKey,
      labelSelector: options.labelSelector ?? { matchLabels: { ...options.matchLabels } },
    };
    if (options.namespaces !== undefined) term.namespaces = [...options.namespaces];
    if (options.namespaceSelector !== undefined) term.namespaceSelector = options.namespaceSelector;
    return term;
  }

  /** A required pod affinity term. */
  podAffinity(topologyKey: string, options: AffinityTermOptions): this {
    const pa = this.#podAffinity(false);
    pa.requiredDuringSchedulingIgnoredDuringExecution = [
      ...(pa.requiredDuringSchedulingIgnoredDuringExecution ?? []),
      this.#term(topologyKey, options),
    ];
    return this;
  }

  /** A required pod anti-affinity term. */
  podAntiAffinity(topologyKey: string, options: AffinityTermOptions): this {
    const pa = this.#podAffinity(true);
    pa.requiredDuringSchedulingIgnoredDuringExecution = [
      ...(pa.requiredDuringSchedulingIgnoredDuringExecution ?? []),
      this.#term(topologyKey, options),
    ];
    return this;
  }

  /** A preferred pod affinity term with a weight. */
  preferredPodAffinity(weight: number, topologyKey: string, options: AffinityTermOptions): this {
    const pa = this.#podAffinity(false);
    pa.preferredDuringSchedulingIgnoredDuringExecution = [
      ...(pa.preferredDuringSchedulingIgnoredDuringExecution ?? []),
      { weight, podAffinityTerm: this.#term(topologyKey, options) },
    ];
    return this;
  }

  /** A preferred pod anti-affinity term with a weight. */
  preferredPodAntiAffinity(
    weight: number,
    topologyKey: string,
    options: AffinityTermOptions,
  ): this {
    const pa = this.#podAffinity(true);
    pa.preferredDuringSchedulingIgnoredDuringExecution = [
      ...(pa.preferredDuringSchedulingIgnoredDuringExecution ?? []),
      { weight, podAffinityTerm: this.#term(topologyKey, options) },
    ];
    return this;
  }

  /** A topology spread constraint selecting pods by `matchLabels`. */
  spreadConstraint(
    maxSkew: number,
    topologyKey: string,
    whenUnsatisfiable: "DoNotSchedule" | "ScheduleAnyway",
    matchLabels: Record<string, string>,
    extra: Partial<TopologySpreadConstraint> = {},
  ): this {
    this.#pod.spec.topologySpreadConstraints = [
      ...(this.#pod.spec.topologySpreadConstraints ?? []),
      {
        maxSkew,
        topologyKey,
        whenUnsatisfiable,
        labelSelector: { matchLabels: { ...matchLabels } },
        ...extra,
      },
    ];
    return this;
  }

  priority(priority: number): this {
    this.#pod.spec.priority = priority;
    return this;
  }

  priorityClassName(name: string): this {
    this.#pod.spec.priorityClassName = name;
    return this;
  }

  preemptionPolicy(policy: "PreemptLowerPriority" | "Never"): this {
    this.#pod.spec.preemptionPolicy = policy;
    return this;
  }

  schedulerName(name: string): this {
    this.#pod.spec.schedulerName = name;
    return this;
  }

  /** `spec.workloadRef` naming a standalone PodGroup (KEP-5832). */
  podGroup(workload: string, podGroupName: string): this {
    this.#pod.spec.workloadRef = { name: workload, podGroupName };
    return this;
  }

  /** `spec.workloadRef` naming a group of the Workload (the 1.35 form), with a replica key. */
  workloadGroup(workload: string, podGroup: string, replicaKey?: string): this {
    this.#pod.spec.workloadRef = {
      name: workload,
      podGroup,
      ...(replicaKey === undefined ? {} : { podGroupReplicaKey: replicaKey }),
    };
    return this;
  }

  schedulingGates(names: string[]): this {
    this.#pod.spec.schedulingGates = names.map((name) => ({ name }));
    return this;
  }

  nodeName(node: string): this {
    this.#pod.spec.nodeName = node;
    return this;
  }

  nominatedNodeName(node: string): this {
    this.#pod.status = { ...this.#pod.status, nominatedNodeName: node };
    return this;
  }

  phase(phase: "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown"): this {
    this.#pod.status = { ...this.#pod.status, phase };
    return this;
  }

  startTime(time: string): this {
    this.#pod.status = { ...this.#pod.status, startTime: time };
    return this;
  }

  condition(condition: PodCondition): this {
    const conditions = (this.#pod.status?.conditions ?? []).filter(
      (c) => c.type !== condition.type,
    );
    this.#pod.status = { ...this.#pod.status, conditions: [...conditions, { ...condition }] };
    return this;
  }
}

/** A pod named `name` in namespace `default` with uid `uid-<name>` and one container `c`. */
export function makePod(name: string): PodBuilder {
  return new PodBuilder({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "default", uid: `uid-${name}` },
    spec: { containers: [{ name: "c", image: "pause" }] },
  });
}
