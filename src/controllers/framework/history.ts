/**
 * Controller history (upstream's pkg/controller/history): the ControllerRevisions through which
 * StatefulSets and DaemonSets remember their pod templates, so that `kubectl rollout history`
 * and `kubectl rollout undo` work and a restarted controller knows its old templates.
 */
import type { ControllerRevision, KubeObject, PodTemplateSpec } from "../../api/index.ts";
import {
  type Client,
  controllerRevisionsResource,
  isAlreadyExists,
  isConflict,
} from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { goJson, hashControllerRevision } from "./hashing.ts";
import { newControllerRef, type OwnerIdentity } from "./owner-refs.ts";

/** `history.ControllerRevisionHashLabel`. */
export const controllerRevisionHashLabel = "controller.kubernetes.io/hash";

type Revision = DeepReadonly<ControllerRevision>;

/**
 * The template as Go writes a decoded `PodTemplateSpec`: structs that are not pointers are never
 * left out, so `metadata.creationTimestamp` is `null` and every container has `resources`. This
 * is what a real cluster's revisions hold and what kubectl recomputes from a set.
 */
function asGoTypedTemplate(template: DeepReadonly<PodTemplateSpec>): Record<string, unknown> {
  const copy = structuredClone(template) as PodTemplateSpec & Record<string, unknown>;
  copy.metadata = { creationTimestamp: null, ...copy.metadata } as NonNullable<
    PodTemplateSpec["metadata"]
  >;
  const spec = copy.spec as (Record<string, unknown> & PodTemplateSpec["spec"]) | undefined;
  for (const list of ["containers", "initContainers", "ephemeralContainers"]) {
    const containers = spec?.[list];
    if (!Array.isArray(containers)) continue;
    for (const container of containers as Record<string, unknown>[]) container["resources"] ??= {};
  }
  return copy;
}

/**
 * `getPatch` of the StatefulSet and DaemonSet controllers: `{"spec":{"template":{…,
 * "$patch":"replace"}}}` with the template as Go writes it and the keys in Go's order, so the
 * served `data` is byte for byte what kubectl computes when it compares a set with a revision
 * (`rollout undo` then skips a revision that already matches).
 */
export function templatePatch(template: DeepReadonly<PodTemplateSpec>): Record<string, unknown> {
  const patch = { spec: { template: { ...asGoTypedTemplate(template), $patch: "replace" } } };
  return JSON.parse(goJson(patch)) as Record<string, unknown>;
}

/** The pod template a revision made with `templatePatch` restores (`ApplyRevision`). */
export function templateOfRevision(revision: Revision): PodTemplateSpec | undefined {
  const data = revision.data as { spec?: { template?: Record<string, unknown> } } | undefined;
  const template = data?.spec?.template;
  if (template === undefined || template === null || typeof template !== "object") return;
  const { $patch: _ignored, ...rest } = structuredClone(template) as Record<string, unknown>;
  const metadata = rest["metadata"] as Record<string, unknown> | undefined;
  if (metadata?.["creationTimestamp"] === null) delete metadata["creationTimestamp"];
  return rest as PodTemplateSpec;
}

/** `ControllerRevisionName`: `<prefix>-<hash>`, the prefix cut to 223 characters. */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.slice(0, 223)}-${hash}`;
}

/**
 * `NewControllerRevision`: a revision of `parent` holding `data`, labelled with the template's
 * labels and its hash, named `<parent>-<hash>`, controlled by `parent`.
 */
export function newControllerRevision(
  parent: DeepReadonly<KubeObject>,
  identity: OwnerIdentity,
  templateLabels: Readonly<Record<string, string>> | undefined,
  data: Record<string, unknown>,
  revision: number,
  collisionCount: number | undefined,
): ControllerRevision {
  const hash = hashControllerRevision(goJson(data), collisionCount);
  return {
    apiVersion: "apps/v1",
    kind: "ControllerRevision",
    metadata: {
      name: controllerRevisionName(parent.metadata.name ?? "", hash),
      namespace: parent.metadata.namespace ?? "",
      labels: { ...templateLabels, [controllerRevisionHashLabel]: hash },
      ownerReferences: [newControllerRef(parent, identity)],
    },
    data,
    revision,
  };
}

/** `SortControllerRevisions`: by revision, then creation time, then name. */
export function sortRevisions<T extends Revision>(revisions: readonly T[]): T[] {
  return [...revisions].sort((a, b) => {
    if (a.revision !== b.revision) return a.revision - b.revision;
    const at = a.metadata.creationTimestamp ?? "";
    const bt = b.metadata.creationTimestamp ?? "";
    if (at !== bt) return at < bt ? -1 : 1;
    const an = a.metadata.name ?? "";
    const bn = b.metadata.name ?? "";
    return an < bn ? -1 : an > bn ? 1 : 0;
  });
}

/** `nextRevision`: one more than the highest revision (1 for none). */
export function nextRevision(revisions: readonly Revision[]): number {
  return revisions.reduce((max, r) => Math.max(max, r.revision), 0) + 1;
}

/**
 * `EqualRevision`: both hold the same data. Upstream compares the hash labels first only when
 * they parse as integers, which safe-encoded hashes never do, so the data decides.
 */
export function equalRevision(a: Revision, b: Revision): boolean {
  return goJson(a.data) === goJson(b.data);
}

/** `CreateControllerRevision`'s result: the stored revision and the collision count it needed. */
export interface CreatedRevision {
  readonly revision: Revision;
  readonly collisionCount: number;
}

/**
 * `CreateControllerRevision`: creates `revision` named by the hash of its data and the collision
 * count; when a revision of that name exists with other data, counts a collision and tries the
 * next name. An existing revision with the same data is returned as is.
 */
export async function createControllerRevision(
  client: Client,
  parent: DeepReadonly<KubeObject>,
  revision: ControllerRevision,
  collisionCount: number,
): Promise<CreatedRevision> {
  const raw = goJson(revision.data);
  const namespace = parent.metadata.namespace ?? "";
  for (let count = collisionCount; ; count++) {
    const hash = hashControllerRevision(raw, count);
    const candidate: ControllerRevision = {
      ...revision,
      metadata: {
        ...revision.metadata,
        name: controllerRevisionName(parent.metadata.name ?? "", hash),
      },
    };
    try {
      const created = await client.create<ControllerRevision>(
        controllerRevisionsResource,
        candidate,
      );
      return { revision: created, collisionCount: count };
    } catch (error: unknown) {
      if (!isAlreadyExists(error)) throw error;
      const existing = await client.get<ControllerRevision>(
        controllerRevisionsResource,
        namespace,
        candidate.metadata.name ?? "",
      );
      if (goJson(existing.data) === raw) return { revision: existing, collisionCount: count };
    }
  }
}

/** `UpdateControllerRevision`: sets the revision number, retrying on conflicts. */
export async function updateRevisionNumber(
  client: Client,
  revision: Revision,
  newRevision: number,
): Promise<Revision> {
  let current = revision;
  for (let attempt = 0; ; attempt++) {
    if (current.revision === newRevision) return current;
    try {
      return await client.update<ControllerRevision>(controllerRevisionsResource, {
        ...(structuredClone(current) as ControllerRevision),
        revision: newRevision,
      });
    } catch (error: unknown) {
      if (!isConflict(error) || attempt >= 4) throw error;
      current = await client.get<ControllerRevision>(
        controllerRevisionsResource,
        current.metadata.namespace ?? "",
        current.metadata.name ?? "",
      );
    }
  }
}
