/**
 * The state of one emulated kubelet inside a fleet: its node, registration, heartbeat
 * bookkeeping, admit handlers and the pods it admitted. Plain data; the sync functions in
 * `node-sync.ts` and `pod-sync.ts` act on it.
 */
import type { Lease, NodeStatus, PodStatus } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import type { PodAdmitHandler } from "../admission/admit-handler.ts";
import type { EmulatedNode } from "../node/emulated-node.ts";
import { PodIpAllocator } from "../node/ip-allocators.ts";
import type { PodPlan } from "../runtime/plan.ts";
import type { PodRecord } from "../runtime/pod-record.ts";
import type { PodResourcesCalls } from "../server/kubelet-metrics.ts";

/** One pod the kubelet has taken on (admitted, or refused). */
export interface PodSlot {
  readonly uid: string;
  /** `namespace/name`. */
  readonly key: string;
  /** What the containers do; replaced when a container's image changes. */
  plan: PodPlan;
  /** The runtime; `undefined` for a refused pod. */
  record: PodRecord | undefined;
  /** `status.startTime`, RFC 3339. */
  readonly startTime: string;
  podIP: string | undefined;
  /** Why admission refused the pod (its status says so); `undefined` when admitted. */
  refusal: { readonly reason: string; readonly message: string } | undefined;
  /** When the kubelet first saw `deletionTimestamp`. */
  deletionSeenAt: number | undefined;
  /** Resources (IP, admit handlers' state) already given back. */
  released: boolean;
  /** The kubelet asked the API server to delete the pod. */
  deleting: boolean;
  /** Set once the kubelet failed the pod for running past `activeDeadlineSeconds`. */
  deadlineExceeded: boolean;
  /**
   * The status this kubelet wrote last and the resourceVersion it wrote over: while the cache
   * still shows that version, the informer has not caught up with the write.
   */
  lastWritten: { readonly status: PodStatus; readonly over: string | undefined } | undefined;
  /** Admission order, for `otherPods`. */
  readonly seq: number;
}

/** One kubelet. */
export class NodeAgent {
  readonly node: EmulatedNode;
  readonly handlers: readonly PodAdmitHandler[];
  nodeUid: string | undefined;
  podCIDR: string | undefined;
  ips: PodIpAllocator | undefined;
  registered = false;
  /** The informer has shown the registered Node (so its absence later means deletion). */
  seenInCache = false;
  /** Stopped by `fleet.fail(name)`. */
  failedByCall = false;
  /** Stopped by the `gantry.dev/fail: "true"` annotation. */
  failedByAnnotation = false;
  lastStatusWriteAt: number | undefined;
  /**
   * The cached Node status (the informer's object) the last status check found nothing new in:
   * while the informer still holds that very object, the next check has nothing to compare.
   */
  statusUnchangedIn: DeepReadonly<NodeStatus> | undefined;
  /** The Lease as last written (its resourceVersion makes the next renewal a plain update). */
  lease: Lease | undefined;
  readonly pods = new Map<string, PodSlot>();
  /** The images (normalized) this node has pulled, for IfNotPresent pulls. */
  readonly images = new Set<string>();
  /** Calls of the PodResources API, for `/metrics`. */
  readonly podResourcesCalls: PodResourcesCalls = { list: 0, getAllocatable: 0 };
  #seq = 0;

  constructor(node: EmulatedNode, handlers: readonly PodAdmitHandler[]) {
    this.node = node;
    this.handlers = handlers;
  }

  /** Whether the kubelet is down (no heartbeats, no status, no pod work). */
  get failed(): boolean {
    return this.failedByCall || this.failedByAnnotation;
  }

  /** Sets the node's pod range (once) and the pod IP allocator behind it. */
  setPodCidr(cidr: string): void {
    if (this.podCIDR === cidr) return;
    this.podCIDR = cidr;
    this.ips = new PodIpAllocator(cidr);
  }

  /** The next admission sequence number. */
  nextSeq(): number {
    return this.#seq++;
  }

  /** Admitted pods that still hold resources, in admission order. */
  activeSlots(): PodSlot[] {
    return [...this.pods.values()]
      .filter((s) => s.record !== undefined && !s.released)
      .sort((a, b) => a.seq - b.seq);
  }
}
