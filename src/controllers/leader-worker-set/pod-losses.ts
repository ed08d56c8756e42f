/**
 * What the LeaderWorkerSet controller remembers between reconciles about pods that went away:
 * which deletions it asked for itself, and which group lost a pod it did not delete (a pod
 * deleted at once, with no terminating state the cache could show). A lost pod makes the restart
 * policy recreate its group, as a deleted pod does upstream. Not shared across processes: after
 * a restart, a pod that vanished earlier is simply recreated on its own.
 */

interface Losses {
  readonly uid: string;
  readonly groups: Map<number, string>;
}

export class PodLosses {
  readonly #ownDeletions = new Set<string>();
  readonly #lost = new Map<string, Losses>();

  /** The controller is about to delete the pod with `uid`. */
  deleting(uid: string): void {
    if (uid !== "") this.#ownDeletions.add(uid);
  }

  /** The pod with `uid` is gone; true when the controller deleted it (forgotten then). */
  gone(uid: string): boolean {
    return this.#ownDeletions.delete(uid);
  }

  /** Uids of pods whose deletion the controller asked for and has not yet seen finish. */
  ownDeletions(): ReadonlySet<string> {
    return this.#ownDeletions;
  }

  /** Group `group` of the set `key` (with `uid`) lost `pod`. The first loss of a group counts. */
  lost(key: string, uid: string, group: number, pod: string): void {
    let losses = this.#lost.get(key);
    if (losses === undefined || losses.uid !== uid) {
      losses = { uid, groups: new Map() };
      this.#lost.set(key, losses);
    }
    if (!losses.groups.has(group)) losses.groups.set(group, pod);
  }

  /** The groups of the set `key` (with `uid`) that lost a pod, with the pod's name. */
  lostPods(key: string, uid: string): ReadonlyMap<number, string> {
    const losses = this.#lost.get(key);
    return losses === undefined || losses.uid !== uid ? new Map() : losses.groups;
  }

  /** The group has been emptied and is being created again: its loss is dealt with. */
  settle(key: string, group: number): void {
    const losses = this.#lost.get(key);
    losses?.groups.delete(group);
    if (losses?.groups.size === 0) this.#lost.delete(key);
  }

  /** Forgets a deleted set. */
  forget(key: string): void {
    this.#lost.delete(key);
  }
}
