/**
 * A DaemonSet's revisions as ControllerRevisions (upstream's `constructHistory`, `snapshot`,
 * `dedupCurHistories` and `cleanupHistory`): the revision whose data matches the live template
 * is the current one and its hash labels new pods; older ones are kept up to
 * `revisionHistoryLimit`, never while a pod still carries their hash.
 */
import type { ControllerRevision, DaemonSet, Pod } from "../../api/index.ts";
import {
  type Client,
  controllerRevisionsResource,
  daemonSetsResource,
  isAlreadyExists,
  isNotFound,
  podsResource,
} from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  computeHash,
  goJson,
  newControllerRef,
  type OwnerIdentity,
  sortRevisions,
  templatePatch,
  updateRevisionNumber,
} from "../framework/index.ts";
import { revisionHashLabel } from "./revision.ts";

type DS = DeepReadonly<DaemonSet>;
type StoredRevision = DeepReadonly<ControllerRevision>;

/** `Match`: the revision holds exactly the DaemonSet's current template patch. */
export function matchesDaemonSet(ds: DS, revision: StoredRevision): boolean {
  return goJson(revision.data) === goJson(templatePatch(ds.spec.template));
}

/** `snapshot`'s object: the template patch named `<ds>-<hash>`, labelled with the hash. */
export function newDaemonSetRevision(
  ds: DS,
  identity: OwnerIdentity,
  revision: number,
): ControllerRevision {
  const hash = computeHash(ds.spec.template, ds.status?.collisionCount);
  const metadata: ControllerRevision["metadata"] = {
    name: `${ds.metadata.name ?? ""}-${hash}`,
    namespace: ds.metadata.namespace ?? "",
    labels: { ...ds.spec.template.metadata?.labels, [revisionHashLabel]: hash },
    ownerReferences: [newControllerRef(ds, identity)],
  };
  if (ds.metadata.annotations !== undefined) metadata.annotations = { ...ds.metadata.annotations };
  return {
    apiVersion: "apps/v1",
    kind: "ControllerRevision",
    metadata,
    data: templatePatch(ds.spec.template),
    revision,
  };
}

/** The current revision and the others, as `constructHistory` returns them. */
export interface DaemonSetHistory {
  readonly current: StoredRevision;
  readonly old: readonly StoredRevision[];
}

/** The hash new pods are labelled with: the current revision's (its name's suffix if unlabelled). */
export function hashOf(history: DaemonSetHistory): string {
  return history.current.metadata.labels?.[revisionHashLabel] ?? "";
}

/**
 * `constructHistory`: labels unlabelled revisions with their name, splits the owned revisions
 * into those matching the live template and the rest, creates the current revision if none
 * matches (`snapshot`), folds duplicates into the newest (`dedupCurHistories`), and renumbers
 * the current revision above every old one.
 */
export async function constructHistory(
  client: Client,
  ds: DS,
  identity: OwnerIdentity,
  owned: readonly StoredRevision[],
  pods: readonly DeepReadonly<Pod>[],
): Promise<DaemonSetHistory> {
  const current: StoredRevision[] = [];
  const old: StoredRevision[] = [];
  for (let revision of owned) {
    if (revision.metadata.labels?.[revisionHashLabel] === undefined) {
      const copy = structuredClone(revision) as ControllerRevision;
      copy.metadata.labels = {
        ...copy.metadata.labels,
        [revisionHashLabel]: copy.metadata.name ?? "",
      };
      revision = await client.update<ControllerRevision>(controllerRevisionsResource, copy);
    }
    (matchesDaemonSet(ds, revision) ? current : old).push(revision);
  }
  const wanted = old.reduce((max, r) => Math.max(max, r.revision), 0) + 1;
  let cur: StoredRevision;
  if (current.length === 0) {
    cur = await snapshot(client, ds, newDaemonSetRevision(ds, identity, wanted));
  } else {
    cur = await dedup(client, current, pods);
    if (cur.revision < wanted) cur = await updateRevisionNumber(client, cur, wanted);
  }
  return { current: cur, old };
}

/**
 * `snapshot`: creates the revision. A revision of that name with the same data is taken as is;
 * one with other data is a hash collision: the DaemonSet's `status.collisionCount` is raised
 * (so the next sync hashes to another name) and the error is returned for a retry.
 */
async function snapshot(
  client: Client,
  ds: DS,
  revision: ControllerRevision,
): Promise<StoredRevision> {
  try {
    return await client.create<ControllerRevision>(controllerRevisionsResource, revision);
  } catch (error: unknown) {
    if (!isAlreadyExists(error)) throw error;
    const namespace = ds.metadata.namespace ?? "";
    const existing = await client.get<ControllerRevision>(
      controllerRevisionsResource,
      namespace,
      revision.metadata.name ?? "",
    );
    if (matchesDaemonSet(ds, existing)) return existing;
    const fresh = await client.get<DaemonSet>(
      daemonSetsResource,
      namespace,
      ds.metadata.name ?? "",
    );
    if ((fresh.status?.collisionCount ?? undefined) !== (ds.status?.collisionCount ?? undefined)) {
      throw new Error(
        `found a stale collision count (${ds.status?.collisionCount ?? 0}, expected ${fresh.status?.collisionCount ?? 0}) of DaemonSet "${ds.metadata.name ?? ""}" while processing; will retry until it is updated`,
      );
    }
    const status = fresh.status ?? {
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
    };
    status.collisionCount = (status.collisionCount ?? 0) + 1;
    await client.updateStatus<DaemonSet>(daemonSetsResource, { ...fresh, status });
    throw error;
  }
}

/**
 * `dedupCurHistories`: several revisions hold the live template; the newest is kept, pods
 * labelled with another's hash are relabelled to it, and the others are deleted.
 */
async function dedup(
  client: Client,
  current: readonly StoredRevision[],
  pods: readonly DeepReadonly<Pod>[],
): Promise<StoredRevision> {
  const sorted = sortRevisions(current);
  const keep = sorted.at(-1) as StoredRevision;
  const keepHash = keep.metadata.labels?.[revisionHashLabel] ?? "";
  for (const duplicate of sorted.slice(0, -1)) {
    const dupHash = duplicate.metadata.labels?.[revisionHashLabel] ?? "";
    for (const pod of pods) {
      if (pod.metadata.labels?.[revisionHashLabel] !== dupHash) continue;
      await client.patch(
        podsResource,
        pod.metadata.namespace ?? "",
        pod.metadata.name ?? "",
        "merge",
        {
          metadata: { labels: { [revisionHashLabel]: keepHash } },
        },
      );
    }
    await deleteRevision(client, duplicate);
  }
  return keep;
}

/**
 * `cleanupHistory`: deletes the oldest old revisions beyond `revisionHistoryLimit`, skipping
 * those whose hash a pod (terminal ones included) still carries.
 */
export async function cleanupHistory(
  client: Client,
  ds: DS,
  history: DaemonSetHistory,
  pods: readonly DeepReadonly<Pod>[],
): Promise<void> {
  let toKill = history.old.length - (ds.spec.revisionHistoryLimit ?? 10);
  if (toKill <= 0) return;
  const live = new Set<string>();
  for (const pod of pods) {
    const hash = pod.metadata.labels?.[revisionHashLabel] ?? "";
    if (hash !== "") live.add(hash);
  }
  for (const revision of sortRevisions(history.old)) {
    if (toKill <= 0) break;
    if (live.has(revision.metadata.labels?.[revisionHashLabel] ?? "")) continue;
    await deleteRevision(client, revision);
    toKill--;
  }
}

async function deleteRevision(client: Client, revision: StoredRevision): Promise<void> {
  try {
    await client.delete(
      controllerRevisionsResource,
      revision.metadata.namespace ?? "",
      revision.metadata.name ?? "",
    );
  } catch (error: unknown) {
    if (!isNotFound(error)) throw error;
  }
}
