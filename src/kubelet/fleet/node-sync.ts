/**
 * The node side of the emulated kubelets: registration (or adoption of an existing Node), the
 * Lease heartbeat every quarter of its duration, and node status every
 * `nodeStatusUpdateFrequency` (patched when it changed, or every `nodeStatusReportFrequency`),
 * both with upstream's 4 % jitter.
 */
import type { Lease, Node, NodeStatus } from "../../api/index.ts";
import {
  isAlreadyExists,
  isConflict,
  isNotFound,
  leasesResource,
  nodesResource,
} from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import type { NodeCidrAllocator } from "../node/ip-allocators.ts";
import {
  failAnnotation,
  kubeletAnnotation,
  nodeLabels,
  nodeLease,
  nodeLeaseNamespace,
  nodeStatusChanged,
  nodeStatusOf,
  registrationNode,
} from "../node/node-object.ts";
import { nodeStatusPatch } from "../node/node-status-patch.ts";
import { type FleetContext, leaseKey, podKey, podName, statusKey } from "./context.ts";
import type { NodeAgent } from "./node-agent.ts";

const fieldManager = "kubelet";

/** Upstream's `wait.JitterUntil(…, 0.04, …)` for the Lease and node status loops. */
const jitterFactor = 0.04;

/** The Lease renewal interval: a quarter of its duration (`nodeLeaseRenewIntervalFraction`). */
function renewIntervalMs(agent: NodeAgent): number {
  return (agent.node.kubelet.nodeLeaseDurationSeconds * 1000) / 4;
}

/** `period` stretched by up to 4 %, as `wait.Jitter(period, 0.04)`. */
function jittered(ctx: FleetContext, period: number): number {
  return period * (1 + jitterFactor * ctx.random.float());
}

/**
 * Starts heartbeats and pod work of a registered, healthy agent. Node status is checked at
 * once, as upstream's kubelet does when it starts (a restarted fleet reports its new kubelet
 * port before anyone dials the old one). The first Lease renewal falls at a random point of its
 * first period, so thousands of nodes that start together (a fleet) do not renew together every
 * period after; the node is Ready from its status meanwhile.
 */
function resume(ctx: FleetContext, agent: NodeAgent): void {
  const now = ctx.clock.now().getTime();
  ctx.schedule(leaseKey(agent.node.name), now + ctx.random.float() * renewIntervalMs(agent));
  ctx.schedule(statusKey(agent.node.name), now);
  for (const pod of ctx.cachedPodsOn(agent.node.name)) ctx.enqueue(podKey(podName(pod)));
}

/** Stops heartbeats of a failed agent (its pods stay as they are). */
function pause(ctx: FleetContext, agent: NodeAgent): void {
  ctx.cancel(leaseKey(agent.node.name));
  ctx.cancel(statusKey(agent.node.name));
}

/** Labels, claim annotation and pod range an existing Node lacks, as a merge patch. */
function adoptionPatch(
  ctx: FleetContext,
  agent: NodeAgent,
  existing: DeepReadonly<Node>,
): Record<string, unknown> | undefined {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(nodeLabels(agent.node))) {
    if (existing.metadata.labels?.[k] === undefined) labels[k] = v;
  }
  const annotations: Record<string, string> = {};
  if (existing.metadata.annotations?.[kubeletAnnotation] !== ctx.fleetName) {
    annotations[kubeletAnnotation] = ctx.fleetName;
  }
  const metadata = {
    ...(Object.keys(labels).length === 0 ? {} : { labels }),
    ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
  };
  const cidr = existing.spec?.podCIDR === undefined ? agent.podCIDR : undefined;
  const patch = {
    ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
    ...(cidr === undefined ? {} : { spec: { podCIDR: cidr, podCIDRs: [cidr] } }),
  };
  return Object.keys(patch).length === 0 ? undefined : patch;
}

/** Creates the Node, or takes over the one that exists (upstream `tryRegisterWithAPIServer`). */
async function register(
  ctx: FleetContext,
  agent: NodeAgent,
  cidrs: NodeCidrAllocator,
): Promise<void> {
  const name = agent.node.name;
  let existing: DeepReadonly<Node> | undefined = ctx.cachedNode(name);
  if (existing === undefined) {
    if (agent.podCIDR === undefined) {
      const allocated = cidrs.allocate();
      if (allocated !== undefined) agent.setPodCidr(allocated);
    }
    const body = registrationNode(
      agent.node,
      ctx.fleetName,
      agent.podCIDR,
      ctx.clock.now(),
      ctx.kubeletPort,
    );
    try {
      const created = await ctx.client.create<Node>(nodesResource, body, { fieldManager });
      agent.nodeUid = created.metadata.uid;
      agent.registered = true;
      return;
    } catch (error: unknown) {
      if (!isAlreadyExists(error)) throw error;
      existing = await ctx.client.get<Node>(nodesResource, undefined, name);
    }
  }
  const cidr = existing.spec?.podCIDR;
  if (cidr !== undefined && cidr !== "") {
    if (agent.podCIDR !== undefined && agent.podCIDR !== cidr) cidrs.release(agent.podCIDR);
    cidrs.reserve(cidr);
    agent.setPodCidr(cidr);
  } else if (agent.podCIDR === undefined) {
    const allocated = cidrs.allocate();
    if (allocated !== undefined) agent.setPodCidr(allocated);
  }
  const patch = adoptionPatch(ctx, agent, existing);
  if (patch !== undefined) {
    await ctx.client.patch(nodesResource, undefined, name, "merge", patch, { fieldManager });
  }
  if (existing.status?.daemonEndpoints?.kubeletEndpoint?.Port !== ctx.kubeletPort) {
    // A restarted kubelet serves on a new port: it is announced before the node counts as
    // registered, so the API server's node proxy reaches it as soon as gantry is ready (the
    // first status update would otherwise come a heartbeat later).
    await ctx.client.patch(
      nodesResource,
      undefined,
      name,
      "merge",
      { status: { daemonEndpoints: { kubeletEndpoint: { Port: ctx.kubeletPort } } } },
      { subresource: "status", fieldManager },
    );
  }
  agent.nodeUid = existing.metadata.uid;
  agent.registered = true;
}

/** The fleet's choices for one node event. */
export interface NodeSyncOptions {
  readonly cidrs: NodeCidrAllocator;
  /** Makes the agent of a Node this fleet should adopt; `undefined` when it should not. */
  adopt(node: DeepReadonly<Node>): NodeAgent | undefined;
  /** Tears down an agent whose Node was deleted. */
  drop(agent: NodeAgent): void;
  /** Called after an agent registered its node. */
  registered(agent: NodeAgent): void;
}

/** Reconciles one node: adoption, registration, failure, deletion. */
export async function syncNode(
  ctx: FleetContext,
  name: string,
  options: NodeSyncOptions,
): Promise<void> {
  const cached = ctx.cachedNode(name);
  let agent = ctx.agents.get(name);
  if (agent?.registered === true && agent.nodeUid !== undefined) {
    const gone = cached === undefined || cached.metadata.uid !== agent.nodeUid;
    if (gone && agent.seenInCache) {
      options.drop(agent);
      agent = undefined;
    }
  }
  if (agent === undefined) {
    if (cached === undefined) return;
    agent = options.adopt(cached);
    if (agent === undefined) return;
  }
  if (cached !== undefined && cached.metadata.uid === agent.nodeUid) agent.seenInCache = true;
  const wasFailed = agent.failed;
  agent.failedByAnnotation = cached?.metadata.annotations?.[failAnnotation] === "true";
  if (!agent.registered) {
    await register(ctx, agent, options.cidrs);
    options.registered(agent);
    if (!agent.failed) resume(ctx, agent);
    return;
  }
  if (agent.failed && !wasFailed) pause(ctx, agent);
  if (!agent.failed && wasFailed) resume(ctx, agent);
}

/** Renews the node's Lease and sets the next renewal. */
export async function renewLease(ctx: FleetContext, name: string): Promise<void> {
  const agent = ctx.agents.get(name);
  if (agent === undefined || !agent.registered || agent.failed) return;
  const now = ctx.clock.now();
  const duration = agent.node.kubelet.nodeLeaseDurationSeconds;
  const fresh = nodeLease(name, agent.nodeUid, duration, now);
  const spec = fresh.spec ?? {};
  try {
    if (agent.lease === undefined) {
      try {
        agent.lease = await ctx.client.create<Lease>(leasesResource, fresh, { fieldManager });
      } catch (error: unknown) {
        if (!isAlreadyExists(error)) throw error;
        const current = await ctx.client.get<Lease>(leasesResource, nodeLeaseNamespace, name);
        agent.lease = await ctx.client.update<Lease>(
          leasesResource,
          { ...current, spec },
          { fieldManager },
        );
      }
    } else {
      agent.lease = await ctx.client.update<Lease>(
        leasesResource,
        { ...agent.lease, spec },
        { fieldManager },
      );
    }
  } catch (error: unknown) {
    // Someone else wrote or removed the Lease: start over from a fresh read next time.
    if (!isConflict(error) && !isNotFound(error)) throw error;
    agent.lease = undefined;
    ctx.schedule(leaseKey(name), now.getTime() + 1000);
    return;
  }
  // Sliding, as upstream's loop: the next period starts when this renewal is done.
  ctx.schedule(leaseKey(name), ctx.clock.now().getTime() + jittered(ctx, renewIntervalMs(agent)));
}

/**
 * Computes node status every `nodeStatusUpdateFrequency` and PATCHes it (upstream
 * `tryUpdateNodeStatus`) only when something besides heartbeat times changed, or
 * `nodeStatusReportFrequency` passed since the last write. The patch is computed against the
 * informer's Node (upstream reads it from the API server's cache), so it never conflicts.
 */
export async function updateNodeStatus(ctx: FleetContext, name: string): Promise<void> {
  const agent = ctx.agents.get(name);
  if (agent === undefined || !agent.registered || agent.failed) return;
  const now = ctx.clock.now();
  const nowMs = now.getTime();
  const settings = agent.node.kubelet;
  const cached = ctx.cachedNode(name);
  if (cached === undefined) {
    ctx.schedule(statusKey(name), nowMs + 1000);
    return;
  }
  const lastWriteAt = agent.lastStatusWriteAt;
  const reportDue =
    lastWriteAt === undefined || nowMs - lastWriteAt >= settings.nodeStatusReportFrequencyMs;
  const next = (): void => {
    ctx.schedule(
      statusKey(name),
      ctx.clock.now().getTime() + jittered(ctx, settings.nodeStatusUpdateFrequencyMs),
    );
  };
  // The informer still holds the very status found unchanged last time: nothing to compute.
  if (!reportDue && cached.status !== undefined && agent.statusUnchangedIn === cached.status) {
    next();
    return;
  }
  const desired = {
    ...(cached.status ?? {}),
    ...nodeStatusOf(agent.node, cached.status, now, ctx.kubeletPort),
  } as NodeStatus;
  if (!nodeStatusChanged(cached.status, desired) && !reportDue) {
    agent.statusUnchangedIn = cached.status;
    next();
    return;
  }
  const patch = nodeStatusPatch(cached.status, desired);
  if (patch !== undefined) {
    await ctx.client.patch(nodesResource, undefined, name, "strategic", patch, {
      subresource: "status",
      fieldManager,
    });
  }
  // A node's first write counts as made at a random point of the last report interval, so the
  // periodic reports of nodes registered together spread over the interval instead of coming
  // all at once every 5 minutes.
  agent.lastStatusWriteAt =
    lastWriteAt === undefined
      ? nowMs - ctx.random.float() * settings.nodeStatusReportFrequencyMs
      : nowMs;
  agent.statusUnchangedIn = undefined;
  next();
}
