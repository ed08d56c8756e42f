/**
 * A StatefulSet's revisions as ControllerRevisions (upstream's `getStatefulSetRevisions`,
 * `newRevision` and `truncateHistory`): the update revision is the live template; the current
 * one is `status.currentRevision`, read back from its ControllerRevision so that pods below the
 * partition are recreated at their own template, even after a controller restart.
 */
import type { ControllerRevision, Pod, StatefulSet } from "../../api/index.ts";
import { type Client, controllerRevisionsResource, isNotFound } from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  createControllerRevision,
  equalRevision,
  newControllerRevision,
  nextRevision,
  sortRevisions,
  templateOfRevision,
  templatePatch,
  updateRevisionNumber,
} from "../framework/index.ts";
import { podRevision } from "./identity.ts";
import type { Revision } from "./plan.ts";

type Set = DeepReadonly<StatefulSet>;
type StoredRevision = DeepReadonly<ControllerRevision>;

export const statefulSetOwner = { apiVersion: "apps/v1", kind: "StatefulSet" } as const;

/** `newRevision`: the set's template as a revision, carrying the set's annotations. */
export function newStatefulSetRevision(
  set: Set,
  revision: number,
  collisionCount: number,
): ControllerRevision {
  const cr = newControllerRevision(
    set,
    statefulSetOwner,
    set.spec.template.metadata?.labels,
    templatePatch(set.spec.template),
    revision,
    collisionCount,
  );
  const annotations = set.metadata.annotations;
  if (annotations !== undefined) cr.metadata.annotations = { ...annotations };
  return cr;
}

/** The revisions a sync works with, and the collision count to store in the status. */
export interface SetRevisions {
  readonly current: Revision;
  readonly update: Revision;
  readonly collisionCount: number;
  /** The stored revisions after this step, sorted (for `truncateHistory`). */
  readonly all: readonly StoredRevision[];
}

function asRevision(stored: StoredRevision, fallback: Set): Revision {
  return {
    name: stored.metadata.name ?? "",
    template: templateOfRevision(stored) ?? fallback.spec.template,
  };
}

/**
 * `getStatefulSetRevisions`: finds or creates the revision of the live template (an equal
 * revision that is not the newest is rolled forward by renumbering it, as a rollback does),
 * and the current revision named by the status (the update revision for a new set).
 */
export async function statefulSetRevisions(
  client: Client,
  set: Set,
  owned: readonly StoredRevision[],
): Promise<SetRevisions> {
  const revisions = sortRevisions(owned);
  let collisionCount = set.status?.collisionCount ?? 0;
  const wanted = newStatefulSetRevision(set, nextRevision(revisions), collisionCount);
  const equal = revisions.filter((r) => equalRevision(r, wanted));
  const newest = revisions.at(-1);
  const lastEqual = equal.at(-1);
  let update: StoredRevision;
  if (lastEqual !== undefined && newest !== undefined && equalRevision(newest, lastEqual)) {
    update = newest;
  } else if (lastEqual !== undefined) {
    update = await updateRevisionNumber(client, lastEqual, wanted.revision);
  } else {
    const created = await createControllerRevision(client, set, wanted, collisionCount);
    update = created.revision;
    collisionCount = created.collisionCount;
  }
  const all = sortRevisions([
    ...revisions.filter((r) => r.metadata.name !== update.metadata.name),
    update,
  ]);
  const currentName = set.status?.currentRevision ?? "";
  const current = revisions.find((r) => r.metadata.name === currentName) ?? update;
  return {
    current: asRevision(current, set),
    update: asRevision(update, set),
    collisionCount,
    all,
  };
}

/**
 * `truncateHistory`: deletes the oldest revisions that no pod, nor the current or update
 * revision, uses, keeping `revisionHistoryLimit` of them.
 */
export async function truncateHistory(
  client: Client,
  set: Set,
  pods: readonly DeepReadonly<Pod>[],
  revisions: SetRevisions,
): Promise<void> {
  const live = new Set([revisions.current.name, revisions.update.name]);
  for (const pod of pods) live.add(podRevision(pod));
  const history = revisions.all.filter((r) => !live.has(r.metadata.name ?? ""));
  const limit = set.spec.revisionHistoryLimit ?? 10;
  for (const old of history.slice(0, Math.max(0, history.length - limit))) {
    try {
      await client.delete(
        controllerRevisionsResource,
        old.metadata.namespace ?? "",
        old.metadata.name ?? "",
      );
    } catch (error: unknown) {
      if (!isNotFound(error)) throw error;
    }
  }
}
