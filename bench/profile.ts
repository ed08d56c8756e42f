/**
 * A V8 CPU profile of the calling thread (the control plane's, in the benchmarks) while some
 * work runs, written as a `.cpuprofile` that Chrome DevTools or VS Code open. V8 samples wall
 * time: a thread descheduled inside a system call is counted in that call.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";

/** Runs `work`, profiling this thread into `file` when one is given (1 ms samples). */
export async function profiled<T>(
  file: string | undefined,
  work: () => Promise<T>,
  onWritten: (file: string) => void = () => undefined,
): Promise<T> {
  if (file === undefined) return work();
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 1000 });
  await post("Profiler.start");
  try {
    return await work();
  } finally {
    const { profile } = (await post("Profiler.stop")) as { profile: object };
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    onWritten(file);
  }
}
