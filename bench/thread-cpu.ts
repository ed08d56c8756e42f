/**
 * CPU time by thread, from Linux's /proc/self/task: what each thread of the process (the API
 * server's, each component thread, the load clients', and the rest: V8's GC helpers and libuv's
 * pool) spent over a phase. Unlike event-loop utilization, it does not count the time a thread
 * waited for a core, so it stays meaningful when the cores are oversubscribed; that wait is
 * `threadWaitSeconds`.
 */
import { readdirSync, readFileSync } from "node:fs";

/**
 * `read(tid)` for each thread of this process (undefined skips the thread: it ended between the
 * listing and the read, or the file is not there); empty where /proc is not there.
 */
function perThread(read: (tid: string) => number | undefined): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync("/proc/self/task");
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const value = read(tid);
      if (value !== undefined) out.set(Number(tid), value);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** CPU seconds used so far by each thread of this process; empty where /proc is not there. */
export function threadCpuSeconds(): Map<number, number> {
  return perThread((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    // Fields after the command name: state is the first, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  });
}

/**
 * Seconds each thread of this process has spent runnable but waiting for a core, from
 * /proc/self/task/TID/schedstat (its second field, in ns); empty where it is not there. Next to
 * `threadCpuSeconds` it tells a thread that is slow from one that is kept off the cores.
 */
export function threadWaitSeconds(): Map<number, number> {
  return perThread((tid) => {
    const [, waitNs] = readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ");
    return Number(waitNs) / 1e9;
  });
}

/**
 * `name ms, …` per unit (a pod) for the named threads between two readings, then every other
 * thread together as `other`. Empty when nothing was read.
 */
export function cpuPerUnitByThread(
  before: ReadonlyMap<number, number>,
  after: ReadonlyMap<number, number>,
  names: ReadonlyMap<number, string>,
  units: number,
): string {
  if (after.size === 0 || units <= 0) return "";
  const spent = (tid: number): number => (after.get(tid) ?? 0) - (before.get(tid) ?? 0);
  const parts: string[] = [];
  let other = 0;
  for (const tid of after.keys()) {
    if (!names.has(tid)) other += spent(tid);
  }
  for (const [tid, name] of names)
    parts.push(`${name} ${((spent(tid) * 1000) / units).toFixed(2)}`);
  parts.push(`other threads (GC helpers, libuv) ${((other * 1000) / units).toFixed(2)}`);
  return parts.join(", ");
}
