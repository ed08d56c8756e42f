/**
 * `uidTrackingExpectations`: the pods (by uid) whose tracking finalizer this controller removed
 * and has not yet seen removed in its cache. Until then those pods are neither counted again nor
 * patched again, so a stale cache never counts a finished pod twice.
 */
export class FinalizerExpectations {
  readonly #byJob = new Map<string, Set<string>>();

  /** Records that the finalizers of `uids` are being removed for the Job `key`. */
  expectRemoved(key: string, uids: readonly string[]): void {
    let pending = this.#byJob.get(key);
    if (pending === undefined) {
      pending = new Set();
      this.#byJob.set(key, pending);
    }
    for (const uid of uids) pending.add(uid);
  }

  /** The removal for `uid` was observed (or will never happen because the request failed). */
  observed(key: string, uid: string): void {
    const pending = this.#byJob.get(key);
    if (pending === undefined) return;
    pending.delete(uid);
    if (pending.size === 0) this.#byJob.delete(key);
  }

  /** The uids still awaited for `key` (a copy). */
  expected(key: string): ReadonlySet<string> {
    return new Set(this.#byJob.get(key) ?? []);
  }

  /** Forgets a deleted Job. */
  delete(key: string): void {
    this.#byJob.delete(key);
  }
}
