/**
 * The clients of `npm run bench:fairness`, run in a worker thread so the server (main thread)
 * and the load each have a core: a noisy user flooding with many concurrent creates and lists,
 * and a quiet user making one get or create at a time. Clients behave like client-go: a 429 is
 * retried after its Retry-After, and the quiet user's latency includes those waits.
 */
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { parentPort } from "node:worker_threads";

export interface FairnessTask {
  readonly url: string;
  readonly noisyToken: string;
  readonly quietToken: string;
  readonly noisyClients: number;
  readonly durationMs: number;
}

export interface FairnessResult {
  /** Milliseconds per quiet operation, 429 retries included. */
  readonly quietLatencies: number[];
  /** 429s the quiet user got (and waited out). */
  readonly quiet429: number;
  /** Noisy operations answered 2xx. */
  readonly noisyOk: number;
  readonly noisy429: number;
  /** Other answers or errors, by status. */
  readonly other: Record<string, number>;
  readonly elapsedMs: number;
}

interface Answer {
  readonly status: number;
  readonly retryAfter: number;
}

function send(
  base: URL,
  agent: Agent,
  token: string,
  method: string,
  path: string,
  body?: Buffer,
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        agent,
        headers: {
          accept: "application/json",
          authorization: `Bearer ${token}`,
          ...(body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": String(body.length) }),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: Number(res.headers["retry-after"] ?? "1"),
          }),
        );
        res.on("error", () => resolve({ status: -1, retryAfter: 1 }));
      },
    );
    req.on("error", () => resolve({ status: -1, retryAfter: 1 }));
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(task: FairnessTask): Promise<FairnessResult> {
  const base = new URL(task.url);
  const noisyAgent = new Agent({ keepAlive: true, maxSockets: task.noisyClients });
  const quietAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const started = performance.now();
  const deadline = started + task.durationMs;
  const other: Record<string, number> = {};
  let noisyOk = 0;
  let noisy429 = 0;
  let made = 0;
  const noisy = async (client: number): Promise<void> => {
    for (let i = 0; performance.now() < deadline; i++) {
      const answer =
        i % 4 !== 3
          ? await send(
              base,
              noisyAgent,
              task.noisyToken,
              "POST",
              "/api/v1/namespaces/noisy/configmaps",
              Buffer.from(
                JSON.stringify({ metadata: { name: `n-${client}-${made++}` }, data: { k: "v" } }),
              ),
            )
          : await send(base, noisyAgent, task.noisyToken, "GET", "/api/v1/namespaces/noisy/pods");
      if (answer.status >= 200 && answer.status < 300) noisyOk++;
      else if (answer.status === 429) {
        noisy429++;
        // A flood: it does retry, but keeps its many connections busy meanwhile.
        await sleep(Math.min(answer.retryAfter * 1000, 100));
      } else other[String(answer.status)] = (other[String(answer.status)] ?? 0) + 1;
    }
  };
  const quietLatencies: number[] = [];
  let quiet429 = 0;
  const quiet = async (): Promise<void> => {
    for (let i = 0; performance.now() < deadline; i++) {
      const t0 = performance.now();
      for (;;) {
        const answer =
          i % 2 === 0
            ? await send(
                base,
                quietAgent,
                task.quietToken,
                "GET",
                "/api/v1/namespaces/quiet/pods/quiet-0",
              )
            : await send(
                base,
                quietAgent,
                task.quietToken,
                "POST",
                "/api/v1/namespaces/quiet/configmaps",
                Buffer.from(JSON.stringify({ metadata: { name: `q-${i}` }, data: { k: "v" } })),
              );
        if (answer.status === 429) {
          quiet429++;
          await sleep(answer.retryAfter * 1000);
          continue;
        }
        if (answer.status < 200 || answer.status >= 300) {
          other[`quiet ${answer.status}`] = (other[`quiet ${answer.status}`] ?? 0) + 1;
        }
        break;
      }
      quietLatencies.push(performance.now() - t0);
    }
  };
  await Promise.all([quiet(), ...Array.from({ length: task.noisyClients }, (_, c) => noisy(c))]);
  const elapsedMs = performance.now() - started;
  noisyAgent.destroy();
  quietAgent.destroy();
  return { quietLatencies, quiet429, noisyOk, noisy429, other, elapsedMs };
}

parentPort?.on("message", (task: FairnessTask) => {
  run(task).then(
    (result) => parentPort?.postMessage({ result }),
    (error: unknown) => parentPort?.postMessage({ error: String(error) }),
  );
});
