import { readlinkSync } from "node:fs";

/**
 * The calling thread's id in the kernel (Linux: `/proc/thread-self` links to `<pid>/task/<tid>`),
 * for per-thread CPU figures; undefined where /proc is not there.
 */
export function thisThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}
