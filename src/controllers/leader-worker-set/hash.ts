/**
 * The hashes a LeaderWorkerSet puts on its pods: the template revision key (upstream's
 * ControllerRevision hash of the leaderWorkerTemplate and networkConfig) and the group keys
 * (SHA-1 of `<namespace>/<leader>`). Pure.
 */
import { createHash } from "node:crypto";
import type { DefaultedLeaderWorkerSet } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { goJson, hashControllerRevision } from "../framework/index.ts";

/**
 * The `template-revision-hash` of a LeaderWorkerSet's current template (upstream's
 * `hashRevision(NewRevision(lws))`): FNV-1 over the patch
 * `{"spec":{"leaderWorkerTemplate":{…,"$patch":"replace"},"networkConfig":{…,"$patch":"replace"}}}`,
 * printed in decimal and safe-encoded. The same template always gives the same key; the values
 * differ from a real cluster's because Go and gantry serialise the template differently.
 */
export function templateRevisionKey(lws: DeepReadonly<DefaultedLeaderWorkerSet>): string {
  const patch = {
    spec: {
      leaderWorkerTemplate: { ...lws.spec.leaderWorkerTemplate, $patch: "replace" },
      networkConfig: { ...lws.spec.networkConfig, $patch: "replace" },
    },
  };
  return hashControllerRevision(goJson(patch), undefined);
}

/** `utils.Sha1Hash`: the 40-character hex SHA-1 of `text`. */
export function sha1Hex(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

/** `genGroupUniqueKey(namespace, leaderName)`: the `group-key` label of every pod of a group. */
export function groupKey(namespace: string, leaderName: string): string {
  return sha1Hex(`${namespace}/${leaderName}`);
}
