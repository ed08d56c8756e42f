/**
 * `makeNode("n1")`: a fluent Node fixture in the spirit of upstream's `st.MakeNode()`. Every method
 * edits the builder and returns it; `obj()` returns a fresh deep copy, `clone()` a builder to vary.
 */
import type { Node, NodeCondition, ResourceList, TaintEffect } from "../../api/index.ts";

export class NodeBuilder {
  #node: Node;

  constructor(node: Node) {
    this.#node = node;
  }

  /** A builder holding a copy of this one's node. */
  clone(): NodeBuilder {
    return new NodeBuilder(structuredClone(this.#node));
  }

  /** A deep copy of the node built so far. */
  obj(): Node {
    return structuredClone(this.#node);
  }

  #status(): NonNullable<Node["status"]> {
    const status = this.#node.status ?? {};
    this.#node.status = status;
    return status;
  }

  #spec(): NonNullable<Node["spec"]> {
    const spec = this.#node.spec ?? {};
    this.#node.spec = spec;
    return spec;
  }

  name(name: string): this {
    this.#node.metadata.name = name;
    const labels = this.#node.metadata.labels ?? {};
    labels["kubernetes.io/hostname"] = name;
    this.#node.metadata.labels = labels;
    return this;
  }

  uid(uid: string): this {
    this.#node.metadata.uid = uid;
    return this;
  }

  label(key: string, value: string): this {
    this.#node.metadata.labels = { ...this.#node.metadata.labels, [key]: value };
    return this;
  }

  labels(labels: Record<string, string>): this {
    this.#node.metadata.labels = { ...this.#node.metadata.labels, ...labels };
    return this;
  }

  /** Sets capacity and allocatable to the same values (merged into the defaults). */
  capacity(resources: ResourceList): this {
    const status = this.#status();
    status.capacity = { ...status.capacity, ...resources };
    status.allocatable = { ...status.allocatable, ...resources };
    return this;
  }

  /** Sets allocatable only (merged into the current values). */
  allocatable(resources: ResourceList): this {
    const status = this.#status();
    status.allocatable = { ...status.allocatable, ...resources };
    return this;
  }

  taint(key: string, value: string, effect: TaintEffect): this {
    const spec = this.#spec();
    const taint = value === "" ? { key, effect } : { key, value, effect };
    spec.taints = [...(spec.taints ?? []), taint];
    return this;
  }

  /** Cordons the node (`spec.unschedulable: true`). */
  unschedulable(unschedulable = true): this {
    const spec = this.#spec();
    spec.unschedulable = unschedulable;
    return this;
  }

  condition(condition: NodeCondition): this {
    const status = this.#status();
    const conditions = (status.conditions ?? []).filter((c) => c.type !== condition.type);
    status.conditions = [...conditions, { ...condition }];
    return this;
  }
}

/**
 * A node named `name` with uid `uid-<name>`, the `kubernetes.io/hostname` label and 4 cpu,
 * 16Gi memory and 110 pods of capacity (all allocatable).
 */
export function makeNode(name: string): NodeBuilder {
  const resources = { cpu: "4", memory: "16Gi", pods: "110" };
  return new NodeBuilder({
    apiVersion: "v1",
    kind: "Node",
    metadata: { name, uid: `uid-${name}`, labels: { "kubernetes.io/hostname": name } },
    spec: {},
    status: { capacity: { ...resources }, allocatable: { ...resources } },
  });
}
