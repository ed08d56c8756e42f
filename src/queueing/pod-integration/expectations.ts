/**
 * Kueue's "finalizedPods" expectations (pkg/util/expectations): the pod UIDs a group reconcile
 * finalized or deleted, per group, until the informer shows the result (the pod without the
 * finalizer, or gone). While any are outstanding the group does not clean up again, so a
 * replacement is never mistaken for an excess pod twice.
 */
export interface UidExpectations {
  /** Records that `uids` of group `key` are about to be finalized or deleted. */
  expect(key: string, uids: readonly string[]): void;
  /** The informer saw `uid` finalized or deleted (or the write failed and will not be seen). */
  observed(key: string, uid: string): void;
  /** Nothing outstanding for `key`. */
  satisfied(key: string): boolean;
}

export function newUidExpectations(): UidExpectations {
  const pending = new Map<string, Set<string>>();
  return {
    expect(key, uids) {
      if (uids.length === 0) return;
      const set = pending.get(key) ?? new Set<string>();
      for (const uid of uids) set.add(uid);
      pending.set(key, set);
    },
    observed(key, uid) {
      const set = pending.get(key);
      if (set === undefined) return;
      set.delete(uid);
      if (set.size === 0) pending.delete(key);
    },
    satisfied(key) {
      return !pending.has(key);
    },
  };
}
