import { X509Certificate } from "node:crypto";
import { createSecureContext } from "node:tls";
import { StorageError, type StorageKey } from "../storage.ts";
import { briefMessage, classifyEtcdError, type EtcdFailure, isTlsFailure } from "./errors.ts";
import { type ChannelTls, GrpcChannel } from "./grpc/channel.ts";
import {
  type CallOptions,
  type KVClient,
  newKVClient,
  openWatch,
  type WatchHandlers,
  type WatchStream,
} from "./grpc/kv.ts";

export type { CallOptions, KVClient, WatchHandlers, WatchStream } from "./grpc/kv.ts";

/**
 * TLS material for `https://` members, as kube-apiserver's `--etcd-cafile`, `--etcd-certfile`
 * and `--etcd-keyfile` give it: used for every member, by every request, watch and compaction.
 */
export interface EtcdTlsCredentials {
  /**
   * PEM CA certificates trusted for the members' serving certificates.
   * @default Node's trusted roots (its bundled CAs and NODE_EXTRA_CA_CERTS)
   */
  readonly caPem?: string;
  /** The PEM client certificate (chain) shown to members with `--client-cert-auth`; with `keyPem`. */
  readonly certPem?: string;
  /** The client certificate's PEM private key; with `certPem`. */
  readonly keyPem?: string;
}

export interface EtcdConnectionOptions {
  readonly endpoints: readonly string[];
  readonly requestTimeoutMs: number;
  /** TLS for `https://` endpoints; every endpoint must then be `https://`. @default none */
  readonly tls?: EtcdTlsCredentials;
}

/** Whether a request changes etcd: a write is retried only when it surely was not sent. */
export type RequestKind = "read" | "write";

/**
 * The client side of the etcd cluster: one gRPC connection per endpoint, one of them preferred
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
  /**
   * Opens a watch stream on the preferred member; rejects with the client's error when no
   * connection to it is up within the request timeout.
   */
  openWatchStream(handlers: WatchHandlers): Promise<WatchStream>;
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

/** As kube-apiserver: ping after 30 s without traffic, give up 10 s later. */
const keepaliveTimeMs = 30_000;
const keepaliveTimeoutMs = 10_000;

const maxRetryDelayMs = 500;

/** Whether `pem` holds at least one certificate that parses (Go's AppendCertsFromPEM test). */
function hasCertificate(pem: string): boolean {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks.some((block) => {
    try {
      new X509Certificate(block);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The channels' TLS material for `options.tls`. A RangeError when an endpoint is not
 * `https://` or only one of the certificate and key is given.
 */
function channelTls(options: EtcdConnectionOptions): ChannelTls {
  const tls = options.tls ?? {};
  const plain = options.endpoints.find((url) => !url.startsWith("https://"));
  if (plain !== undefined) {
    throw new RangeError(
      `Cannot use TLS credentials with etcd endpoint "${plain}": give https:// endpoints`,
    );
  }
  if ((tls.certPem === undefined) !== (tls.keyPem === undefined)) {
    throw new RangeError(
      "Cannot use an etcd client certificate without its key, or a key without its certificate",
    );
  }
  if (tls.caPem !== undefined && !hasCertificate(tls.caPem)) {
    throw new RangeError(
      "Cannot use the etcd TLS credentials: the CA bundle holds no PEM certificate",
    );
  }
  try {
    // What the connections will build from them: a bad PEM or a key of another certificate
    // fails here.
    createSecureContext({
      ...(tls.caPem === undefined ? {} : { ca: tls.caPem }),
      ...(tls.certPem === undefined ? {} : { cert: tls.certPem }),
      ...(tls.keyPem === undefined ? {} : { key: tls.keyPem }),
    });
  } catch (error: unknown) {
    throw new RangeError(`Cannot use the etcd TLS credentials: ${briefMessage(error)}`, {
      cause: error,
    });
  }
  // Without a CA, Node's trusted roots verify the members.
  return {
    ...(tls.caPem === undefined ? {} : { ca: tls.caPem }),
    ...(tls.certPem === undefined ? {} : { cert: tls.certPem }),
    ...(tls.keyPem === undefined ? {} : { key: tls.keyPem }),
  };
}

export function newEtcdConnection(options: EtcdConnectionOptions): EtcdConnection {
  if (options.endpoints.length === 0) {
    throw new RangeError("Cannot open etcd storage: no endpoints given");
  }
  const tls = options.tls === undefined ? undefined : channelTls(options);
  const channels = options.endpoints.map(
    (url) =>
      new GrpcChannel({
        url,
        keepaliveTimeMs,
        keepaliveTimeoutMs,
        ...(tls === undefined ? {} : { tls }),
      }),
  );
  const clients = channels.map((channel) => newKVClient(channel));
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
    if (failure === "unreachable" && isTlsFailure(error)) {
      return new StorageError(
        "Unavailable",
        key,
        undefined,
        `no etcd member completed a TLS handshake within ${timeoutMs} ms (endpoints ${endpointList}: ${briefMessage(error)}); check that the trusted CA signed the members' serving certificates and that etcd accepts the client certificate`,
      );
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
        const client = clients[index] as KVClient;
        try {
          return await run(client, { deadline });
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

    openWatchStream: (handlers) => {
      if (closed) return Promise.reject(unavailable("", undefined, "closed"));
      const channel = channels[preferred] as GrpcChannel;
      return openWatch(channel, Date.now() + options.requestTimeoutMs, handlers);
    },

    close: () => {
      if (closed) return;
      closed = true;
      for (const channel of channels) channel.close();
    },
  };
}
