/**
 * StatefulSet revisions without ControllerRevision objects: the revision name
 * `<set>-<hash of the template>` upstream's history package gives, and an in-memory record of the
 * templates each set had, so pods below the partition can be recreated at the current revision.
 */
import type { PodTemplateSpec } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

const alphanums = "bcdfghjklmnpqrstvwxz2456789";

/** `rand.SafeEncodeString`. */
function safeEncode(text: string): string {
  let out = "";
  for (const ch of text) out += alphanums[(ch.codePointAt(0) ?? 0) % alphanums.length];
  return out;
}

/** JSON with sorted object keys: equal templates always hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** 32-bit FNV-1 (upstream's `HashControllerRevision` uses `fnv.New32`). */
function fnv32(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash = Math.imul(hash, 0x01000193) >>> 0;
    hash ^= byte;
  }
  return hash >>> 0;
}

/**
 * `HashControllerRevision` of the revision a StatefulSet's template makes: FNV-1 over the patch
 * `{"spec":{"template":{…,"$patch":"replace"}}}` (canonical JSON here, Go's encoding upstream,
 * so the values differ from a real cluster's), then the collision count as 4 little-endian
 * bytes when set, printed in decimal and safe-encoded.
 */
export function revisionHash(
  template: DeepReadonly<PodTemplateSpec>,
  collisionCount: number | undefined,
): string {
  const patch = { spec: { template: { ...template, $patch: "replace" } } };
  const body = new TextEncoder().encode(canonicalJson(patch));
  let bytes = body;
  if (collisionCount !== undefined) {
    bytes = new Uint8Array(body.length + 4);
    bytes.set(body);
    new DataView(bytes.buffer).setUint32(body.length, collisionCount >>> 0, true);
  }
  return safeEncode(String(fnv32(bytes)));
}

/** `ControllerRevisionName`: `<set>-<hash>`, the prefix cut to 223 characters. */
export function revisionName(setName: string, hash: string): string {
  return `${setName.slice(0, 223)}-${hash}`;
}

/**
 * The templates of each StatefulSet's revisions seen since the controller started, by set uid
 * and revision name (what ControllerRevisions store upstream). Not shared across processes;
 * after a restart the current revision's template is unknown until seen again.
 */
export class RevisionTemplates {
  readonly #bySet = new Map<string, Map<string, DeepReadonly<PodTemplateSpec>>>();

  /** Records `template` as revision `name` of the set with `uid`. */
  remember(uid: string, name: string, template: DeepReadonly<PodTemplateSpec>): void {
    let revisions = this.#bySet.get(uid);
    if (revisions === undefined) {
      revisions = new Map();
      this.#bySet.set(uid, revisions);
    }
    revisions.set(name, template);
  }

  /** The template of revision `name`, if it was seen. */
  get(uid: string, name: string): DeepReadonly<PodTemplateSpec> | undefined {
    return this.#bySet.get(uid)?.get(name);
  }

  /** Keeps only the revisions named in `live` (current, update, those of existing pods). */
  retain(uid: string, live: ReadonlySet<string>): void {
    const revisions = this.#bySet.get(uid);
    if (revisions === undefined) return;
    for (const name of [...revisions.keys()]) if (!live.has(name)) revisions.delete(name);
  }

  /** Forgets a deleted set. */
  forget(uid: string): void {
    this.#bySet.delete(uid);
  }
}
