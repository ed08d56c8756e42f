import {
  Etcd3,
  type IDuplexStream,
  type IOptions,
  type IWatchRequest,
  type IWatchResponse,
  type KVClient,
} from "etcd3";
import { StorageError, type StorageKey } from "../storage.ts";
import { briefMessage, classifyEtcdError, type EtcdFailure } from "./errors.ts";

/** gRPC call options (a deadline), as the etcd3 client takes them. */
export type CallOptions = NonNullable<Parameters<KVClient["range"]>[1]>;

export interface EtcdConnectionOptions {
  readonly endpoints: readonly string[];
  readonly requestTimeoutMs: number;
}

/** Whether a request changes etcd: a write is retried only when it surely was not sent. */
export type RequestKind = "read" | "write";

/**
 * The client side of the etcd cluster: one gRPC client per endpoint, one of them preferred
 * (the first at start, like clientv3's pinned endpoint). A request goes to the preferred member;
 * when that member cannot be reached the next one is preferred and the request retried, until
 * `requestTimeoutMs` has passed since it started. Failures that are not about the requested
 * data become `StorageError("Unavailable")`.
 */
export interface EtcdConnection {
  readonly endpoints: readonly string[];
  /** Runs `run` against the preferred member with a deadline, retrying as described above. */
  call<T>(
    key: StorageKey,
    kind: RequestKind,
    run: (kv: KVClient, options: CallOptions) => Promise<T>,
    timeoutMs?: number,
  ): Promise<T>;
  /** Opens a watch stream on the preferred member; rejects with the client's error. */
  openWatchStream(): Promise<IDuplexStream<IWatchRequest, IWatchResponse>>;
  /** Prefers another member after the current one failed a stream. */
  failover(): void;
  /** Maps a client error to the StorageError the store throws, or returns it unchanged. */
  unavailable(
    key: StorageKey,
    error: unknown,
    failure: EtcdFailure,
    timeoutMs?: number,
  ): StorageError;
  readonly closed: boolean;
  close(): void;
}

type Policy = NonNullable<NonNullable<IOptions["faultHandling"]>["global"]>;

/**
 * A policy that runs the call once: retries and host selection are done here, where a write is
 * known from a read (the client's own retry would repeat a write whose outcome is unknown).
 */
const passThrough: Policy = {
  _altReturn: undefined as never,
  onSuccess: () => ({ dispose: () => undefined }),
  onFailure: () => ({ dispose: () => undefined }),
  execute: async (fn, signal) => fn({ signal: signal ?? new AbortController().signal }),
};

/** gRPC channel settings: reconnect quickly once a member is back; detect dead peers. */
const grpcOptions = {
  "grpc.initial_reconnect_backoff_ms": 100,
  "grpc.min_reconnect_backoff_ms": 100,
  "grpc.max_reconnect_backoff_ms": 1000,
  // As kube-apiserver: ping after 30 s without traffic, give up 10 s later.
  "grpc.keepalive_time_ms": 30_000,
  "grpc.keepalive_timeout_ms": 10_000,
  // As kube-apiserver (MaxCallRecvMsgSize = MaxInt32): gRPC's 4 MiB default would fail the
  // watch cache's first list of any cluster with more than a few thousand objects.
  "grpc.max_receive_message_length": 2_147_483_647,
  "grpc.max_send_message_length": 2_147_483_647,
};

const maxRetryDelayMs = 500;

export function newEtcdConnection(options: EtcdConnectionOptions): EtcdConnection {
  if (options.endpoints.length === 0) {
    throw new RangeError("Cannot open etcd storage: no endpoints given");
  }
  const clients = options.endpoints.map(
    (host) =>
      new Etcd3({
        hosts: [host],
        grpcOptions,
        faultHandling: { host: () => passThrough, global: passThrough },
      }),
  );
  let preferred = 0;
  let closed = false;
  const endpointList = options.endpoints.join(",");

  const unavailable = (
    key: StorageKey,
    error: unknown,
    failure: EtcdFailure,
    timeoutMs = options.requestTimeoutMs,
  ): StorageError => {
    if (closed || failure === "closed") {
      return new StorageError("Unavailable", key, undefined, "storage is closed");
    }
    const what =
      failure === "timeout"
        ? `etcd did not answer within ${timeoutMs} ms`
        : failure === "unreachable"
          ? `no etcd member could be reached within ${timeoutMs} ms`
          : "etcd failed the request";
    return new StorageError(
      "Unavailable",
      key,
      undefined,
      `${what} (endpoints ${endpointList}: ${briefMessage(error)}); check that etcd is running and reachable from this server, then retry`,
    );
  };

  const moveOff = (index: number): void => {
    if (preferred === index) preferred = (index + 1) % clients.length;
  };

  return {
    endpoints: options.endpoints,
    get closed() {
      return closed;
    },
    unavailable,
    failover: () => moveOff(preferred),

    call: async (key, kind, run, timeoutMs = options.requestTimeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      let delay = 25;
      /** The last "could not connect" error: a better explanation than the final deadline. */
      let unreachable: unknown;
      for (;;) {
        if (closed) throw unavailable(key, undefined, "closed");
        const index = preferred;
        const client = clients[index] as Etcd3;
        try {
          return await run(client.kv, { deadline: new Date(deadline) });
        } catch (error: unknown) {
          const failure = classifyEtcdError(error);
          if (failure === "compacted" || failure === "future" || failure === "other") throw error;
          if (failure === "unreachable" || failure === "transient") moveOff(index);
          if (failure === "unreachable") unreachable = error;
          const retry = failure === "unreachable" || (kind === "read" && failure === "transient");
          const left = deadline - Date.now();
          if (!retry || left <= 0) {
            if (unreachable !== undefined && (failure === "unreachable" || failure === "timeout")) {
              throw unavailable(key, unreachable, "unreachable", timeoutMs);
            }
            throw unavailable(key, error, left <= 0 ? "timeout" : failure, timeoutMs);
          }
          await new Promise((resolve) => setTimeout(resolve, Math.min(delay, left)));
          delay = Math.min(delay * 2, maxRetryDelayMs);
        }
      }
    },

    openWatchStream: () => {
      if (closed) return Promise.reject(unavailable("", undefined, "closed"));
      const client = clients[preferred] as Etcd3;
      return client.watchClient.watch();
    },

    close: () => {
      if (closed) return;
      closed = true;
      for (const client of clients) client.close();
    },
  };
}
