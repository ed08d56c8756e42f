/**
 * The benchmark's clients, run in a worker thread so that the server (on the main thread) and
 * the load generator each have a core. The main thread sends one `LoadTask` at a time and gets
 * back a `PhaseResult`; progress lines come as `{ progress }` messages.
 */
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { parentPort } from "node:worker_threads";
import {
  type Connection,
  type HttpRequest,
  newConnection,
  readText,
  send as sendRequest,
} from "../src/client/http-request.ts";
import { podBody } from "./pods.ts";
import { type PhaseResult, summarize } from "./stats.ts";

/** One phase for the worker; `budgetMs` bounds it: no new operation starts after that. */
export type LoadTask =
  | {
      op: "create";
      url: string;
      namespace: string;
      prefix: string;
      count: number;
      clients: number;
      budgetMs: number;
    }
  | {
      op: "get";
      url: string;
      namespace: string;
      prefix: string;
      pods: number;
      count: number;
      clients: number;
      budgetMs: number;
    }
  | { op: "list"; url: string; namespace: string; runs: number; limit: number; budgetMs: number }
  | {
      /** `method` with `bodies[i]` to `paths[i]`, from `clients` connections, each answered `status`. */
      op: "requests";
      url: string;
      method: string;
      /** @default application/json */
      contentType?: string;
      paths: readonly string[];
      bodies: readonly string[];
      clients: number;
      status: number;
      budgetMs: number;
    }
  | {
      op: "watch";
      url: string;
      namespace: string;
      watchers: number;
      events: number;
      clients: number;
      budgetMs: number;
    };

interface Answer {
  readonly status: number;
  readonly body: Buffer;
}

/** Keep-alive connections to the server of `base`, through the components' own HTTP/1.1 client. */
function poolTo(base: URL): Connection {
  return newConnection({ server: base.origin, userAgent: "gantry-bench", timeoutMs: 0 });
}

const noDeadline = new AbortController().signal;

/**
 * One request and its whole answer, over the components' client (decision 0015) rather than
 * `node:http`: the load generator shares the machine's two cores with the server, so its own
 * CPU per request is kept as small as the server's clients keep theirs.
 */
async function send(
  connection: Connection,
  method: string,
  path: string,
  body?: Buffer,
  contentType = "application/json",
): Promise<Answer> {
  const res = await sendRequest(connection, {
    // The tasks name the methods of the API's verbs.
    method: method as HttpRequest["method"],
    path,
    ...(body === undefined ? {} : { body: body.toString("utf8"), contentType }),
    signal: noDeadline,
  });
  return { status: res.statusCode, body: Buffer.from(await readText(res, `${method} ${path}`)) };
}

function progress(line: string): void {
  parentPort?.postMessage({ progress: line });
}

/**
 * Runs up to `total` operations over `clients` concurrent loops, starting none after `budgetMs`;
 * returns the latencies of those that ran.
 */
async function closedLoop(
  total: number,
  clients: number,
  budgetMs: number,
  op: (i: number) => Promise<void>,
  label: string,
): Promise<{ latencies: Float64Array; elapsedMs: number }> {
  const latencies = new Float64Array(total);
  let next = 0;
  let done = 0;
  const step = Math.max(1, Math.floor(total / 4));
  const started = performance.now();
  const deadline = started + budgetMs;
  const client = async (): Promise<void> => {
    for (let i = next++; i < total && performance.now() < deadline; i = next++) {
      const t0 = performance.now();
      await op(i);
      latencies[i] = performance.now() - t0;
      done++;
      if (done % step === 0) progress(`${label} ${done}/${total}`);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  if (done < total) progress(`${label}: stopped by the time budget after ${done}/${total}`);
  return { latencies: latencies.subarray(0, done), elapsedMs: performance.now() - started };
}

/** "" when a phase ran in full, else what the time budget cut. */
function cut(done: number, total: number): string {
  return done < total ? `; stopped by the time budget after ${done} of ${total}` : "";
}

function expect(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) {
    throw new Error(`${what}: HTTP ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
  }
}

async function create(task: Extract<LoadTask, { op: "create" }>): Promise<PhaseResult> {
  const base = new URL(task.url);
  const agent = poolTo(base);
  const path = `/api/v1/namespaces/${task.namespace}/pods`;
  const { latencies, elapsedMs } = await closedLoop(
    task.count,
    task.clients,
    task.budgetMs,
    async (i) => {
      const body = Buffer.from(
        JSON.stringify(podBody(`${task.prefix}-${i}`, { shard: String(i % 16) })),
      );
      expect(await send(agent, "POST", path, body), 201, "create");
    },
    "create",
  );
  agent.pool.destroy();
  return summarize(latencies, elapsedMs, cut(latencies.length, task.count).replace(/^; /, ""));
}

async function get(task: Extract<LoadTask, { op: "get" }>): Promise<PhaseResult> {
  const base = new URL(task.url);
  const agent = poolTo(base);
  const path = `/api/v1/namespaces/${task.namespace}/pods/`;
  const { latencies, elapsedMs } = await closedLoop(
    task.count,
    task.clients,
    task.budgetMs,
    async (i) => {
      // A fixed stride through the pods: every read hits a different object.
      const name = `${task.prefix}-${(i * 7919) % task.pods}`;
      expect(await send(agent, "GET", `${path}${name}`), 200, "get");
    },
    "get",
  );
  agent.pool.destroy();
  return summarize(latencies, elapsedMs, cut(latencies.length, task.count).replace(/^; /, ""));
}

/** Full lists (limit 0) or chunked lists followed to the end through `continue`. */
async function list(task: Extract<LoadTask, { op: "list" }>): Promise<PhaseResult> {
  const base = new URL(task.url);
  const agent = poolTo(base);
  const path = `/api/v1/namespaces/${task.namespace}/pods`;
  const latencies: number[] = [];
  let items = 0;
  let bytes = 0;
  const pages: Buffer[] = [];
  const started = performance.now();
  const deadline = started + task.budgetMs;
  for (let run = 0; run < task.runs && performance.now() < deadline; run++) {
    const t0 = performance.now();
    let token = "";
    items = 0;
    bytes = 0;
    do {
      const query =
        task.limit > 0
          ? `?limit=${task.limit}${token === "" ? "" : `&continue=${encodeURIComponent(token)}`}`
          : "";
      const answer = await send(agent, "GET", `${path}${query}`);
      expect(answer, 200, "list");
      bytes += answer.body.length;
      // The list metadata comes first: read the continue token without parsing every item.
      const head = answer.body.subarray(0, 1024).toString();
      token = /"continue":"([^"]*)"/.exec(head)?.[1] ?? "";
      pages.push(answer.body);
    } while (token !== "");
    latencies.push(performance.now() - t0);
    // Outside the timing: check that the pages hold every pod once.
    items = 0;
    for (const page of pages.splice(0)) {
      items += (JSON.parse(page.toString()) as { items: unknown[] }).items.length;
    }
  }
  agent.pool.destroy();
  const result = summarize(latencies, performance.now() - started);
  return {
    ...result,
    note: `${items} items, ${(bytes / 1e6).toFixed(1)} MB per list${cut(latencies.length, task.runs)}`,
  };
}

const marker = Buffer.from('"resourceVersion":"');

/**
 * `paths.length` requests from `clients` keep-alive connections (1: one after another, as one
 * client such as `kubectl drain` sends them), each expected to be answered `status`.
 */
async function requests(task: Extract<LoadTask, { op: "requests" }>): Promise<PhaseResult> {
  const base = new URL(task.url);
  const agent = poolTo(base);
  const { latencies, elapsedMs } = await closedLoop(
    task.paths.length,
    task.clients,
    task.budgetMs,
    async (i) => {
      const path = task.paths[i] ?? "";
      const body = Buffer.from(task.bodies[i] ?? "");
      const answer = await send(agent, task.method, path, body, task.contentType);
      expect(answer, task.status, `${task.method} ${path}`);
    },
    task.method.toLowerCase(),
  );
  agent.pool.destroy();
  return summarize(latencies, elapsedMs, cut(latencies.length, task.paths.length));
}

/**
 * 100 watchers on one namespace's pods, then `events` creates from `clients` writers. Delivery
 * latency is the time from the create's acknowledgement to each watcher's receipt of its event
 * (0 when the event arrives first). Watchers find each event's resourceVersion without parsing
 * the JSON, so the client thread keeps up with the fan-out.
 */
async function watch(task: Extract<LoadTask, { op: "watch" }>): Promise<PhaseResult> {
  const base = new URL(task.url);
  const path = `/api/v1/namespaces/${task.namespace}/pods`;
  const watchAgent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const listPool = poolTo(base);
  const listed = await send(listPool, "GET", `${path}?limit=1`);
  listPool.pool.destroy();
  expect(listed, 200, "list before watch");
  const rv = (JSON.parse(listed.body.toString()) as { metadata: { resourceVersion: string } })
    .metadata.resourceVersion;
  // Receipts: (resourceVersion, receive time) pairs over every watcher.
  const receivedRv = new Float64Array(task.watchers * task.events);
  const receivedAt = new Float64Array(task.watchers * task.events);
  let received = 0;
  const perWatcher = new Array<number>(task.watchers).fill(0);
  const requests: ReturnType<typeof request>[] = [];
  await Promise.all(
    Array.from(
      { length: task.watchers },
      (_, w) =>
        new Promise<void>((resolve, reject) => {
          const req = request(
            {
              host: base.hostname,
              port: base.port,
              path: `${path}?watch=true&resourceVersion=${rv}`,
              agent: watchAgent,
            },
            (res) => {
              if (res.statusCode !== 200) reject(new Error(`watch: HTTP ${res.statusCode}`));
              resolve();
              let carry: Buffer = Buffer.alloc(0);
              res.on("data", (chunk: Buffer) => {
                const now = performance.now();
                const data = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
                let at = data.indexOf(marker);
                let consumed = 0;
                while (at >= 0) {
                  const start = at + marker.length;
                  const end = data.indexOf(0x22, start);
                  if (end < 0) break;
                  if (received < receivedRv.length) {
                    receivedRv[received] = Number(data.toString("latin1", start, end));
                    receivedAt[received] = now;
                    received++;
                  }
                  perWatcher[w] = (perWatcher[w] ?? 0) + 1;
                  consumed = end;
                  at = data.indexOf(marker, end);
                }
                carry = data.subarray(Math.max(consumed, data.length - marker.length - 24));
              });
            },
          );
          req.on("error", reject);
          req.end();
          requests.push(req);
        }),
    ),
  );
  progress(`watch: ${task.watchers} watchers open`);
  const ackAt = new Map<number, number>();
  const agent = poolTo(base);
  const started = performance.now();
  const writes = await closedLoop(
    task.events,
    task.clients,
    task.budgetMs,
    async (i) => {
      const body = Buffer.from(JSON.stringify(podBody(`watched-${i}`)));
      const answer = await send(agent, "POST", path, body);
      expect(answer, 201, "create for watch");
      const match = /"resourceVersion":"(\d+)"/.exec(answer.body.toString());
      ackAt.set(Number(match?.[1]), performance.now());
    },
    "watch writes",
  );
  const deadline = performance.now() + 60_000;
  const written = writes.latencies.length;
  while (perWatcher.some((n) => n < written) && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const elapsedMs = performance.now() - started;
  for (const req of requests) req.destroy();
  agent.pool.destroy();
  watchAgent.destroy();
  const latencies = new Float64Array(received);
  let early = 0;
  for (let i = 0; i < received; i++) {
    const acked = ackAt.get(receivedRv[i] ?? 0);
    const latency = acked === undefined ? Number.NaN : (receivedAt[i] ?? 0) - acked;
    if (latency < 0) early++;
    latencies[i] = Math.max(0, latency);
  }
  const missing = task.watchers * written - received;
  const result = summarize(latencies, elapsedMs);
  return {
    ...result,
    note: `${task.watchers} watchers; ${received.toLocaleString("en-US")} deliveries${missing > 0 ? `, ${missing} missing` : ""}; ${((early / Math.max(1, received)) * 100).toFixed(0)}% arrived before the ack${cut(written, task.events)}`,
  };
}

parentPort?.on("message", (task: LoadTask) => {
  const run = async (): Promise<PhaseResult> => {
    switch (task.op) {
      case "create":
        return create(task);
      case "get":
        return get(task);
      case "list":
        return list(task);
      case "requests":
        return requests(task);
      case "watch":
        return watch(task);
    }
  };
  run().then(
    (result) => parentPort?.postMessage({ result }),
    (error: unknown) =>
      parentPort?.postMessage({ error: error instanceof Error ? error.stack : String(error) }),
  );
});
