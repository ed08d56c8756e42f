/**
 * The CPU priority of component threads. Every component waits on the API server, so when the
 * cores are oversubscribed (a 2-core laptop running the API server, the scheduler, the kubelets
 * and a user's load), the API server's thread should win: component threads raise their own nice
 * value, as a cluster gives kube-apiserver more CPU weight than its clients. Linux only (a thread
 * finds its own id in `/proc/thread-self`); elsewhere, or when the kernel refuses, nothing changes.
 */
import { readFileSync, readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/** The nice value of a component thread: about a third of the API server's CPU weight. */
export const componentThreadNice = 5;

/**
 * Sets this thread's nice value (only raising it needs no privilege). Returns the thread id it
 * changed, or undefined when it could not.
 */
export function setThisThreadNice(nice: number): number | undefined {
  const tid = thisThreadId();
  if (tid === undefined) return undefined;
  try {
    setPriority(tid, nice);
    return tid;
  } catch {
    return undefined;
  }
}

/** This thread's nice value as the kernel reports it; undefined where /proc is not there. */
export function thisThreadNice(): number | undefined {
  try {
    const stat = readFileSync("/proc/thread-self/stat", "utf8");
    // Fields after the command name: state is the first, nice the 17th.
    const nice = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
    return Number.isInteger(nice) ? nice : undefined;
  } catch {
    return undefined;
  }
}

/** This thread's id in the kernel; undefined where /proc is not there. */
export function thisThreadId(): number | undefined {
  try {
    // "<pid>/task/<tid>"
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}
