import type { InformerFactory } from "../client/index.ts";

/**
 * Calls `onSynced` once every informer `informers` has handed out so far has synced; never if
 * `signal` aborts first or there is nothing to call. Call it after the component's start
 * handed its informers out.
 */
export function notifySynced(
  informers: InformerFactory,
  onSynced: (() => void) | undefined,
  signal: AbortSignal,
): void {
  if (onSynced === undefined) return;
  void informers.waitForSync(signal).then((synced) => {
    if (synced) onSynced();
  });
}
