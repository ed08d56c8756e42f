import type { GrpcChannel, GrpcStream } from "./channel.ts";
import {
  type CompactionRequest,
  type CompactionResponse,
  type DeleteRangeRequest,
  type DeleteRangeResponse,
  encodeCompactionRequest,
  encodeDeleteRangeRequest,
  encodePutRequest,
  encodeRangeRequest,
  encodeTxnRequest,
  encodeWatchRequest,
  type PutRequest,
  type PutResponse,
  type RangeRequest,
  type RangeResponse,
  readCompactionResponse,
  readDeleteRangeResponse,
  readPutResponse,
  readRangeResponse,
  readTxnResponse,
  readWatchResponse,
  type TxnRequest,
  type TxnResponse,
  type WatchRequest,
  type WatchResponse,
} from "./messages.ts";
import { ProtoReader } from "./protobuf.ts";
import { type GrpcError, Status } from "./status.ts";

/** Per-call options: the deadline, in ms since the epoch. */
export interface CallOptions {
  readonly deadline: number;
}

/** etcd's KV service (etcdserverpb.KV) on one member. */
export interface KVClient {
  range(request: RangeRequest, options: CallOptions): Promise<RangeResponse>;
  put(request: PutRequest, options: CallOptions): Promise<PutResponse>;
  deleteRange(request: DeleteRangeRequest, options: CallOptions): Promise<DeleteRangeResponse>;
  txn(request: TxnRequest, options: CallOptions): Promise<TxnResponse>;
  compact(request: CompactionRequest, options: CallOptions): Promise<CompactionResponse>;
}

export function newKVClient(channel: GrpcChannel): KVClient {
  const call = async <T>(
    method: string,
    request: Buffer,
    options: CallOptions,
    read: (r: ProtoReader) => T,
  ): Promise<T> => {
    const response = await channel.unary(`/etcdserverpb.KV/${method}`, request, options.deadline);
    return read(new ProtoReader(response));
  };
  return {
    range: (r, o) => call("Range", encodeRangeRequest(r), o, readRangeResponse),
    put: (r, o) => call("Put", encodePutRequest(r), o, readPutResponse),
    deleteRange: (r, o) =>
      call("DeleteRange", encodeDeleteRangeRequest(r), o, readDeleteRangeResponse),
    txn: (r, o) => call("Txn", encodeTxnRequest(r), o, readTxnResponse),
    compact: (r, o) => call("Compact", encodeCompactionRequest(r), o, readCompactionResponse),
  };
}

/** One etcd Watch stream (etcdserverpb.Watch/Watch): requests out, responses in. */
export interface WatchStream {
  send(request: WatchRequest): void;
  /** Half-closes, then cancels the call: the member drops every watch on the stream. */
  close(): void;
  pause(): void;
  resume(): void;
}

export interface WatchHandlers {
  readonly onResponse: (response: WatchResponse) => void;
  /** The stream ended (an error, or undefined when the member ended it cleanly). Once. */
  readonly onEnd: (error: Error | undefined) => void;
}

/**
 * Opens a Watch stream on `channel`; rejects with UNAVAILABLE when no connection is up by
 * `deadline`. A response that cannot be decoded ends the stream with that error.
 */
export async function openWatch(
  channel: GrpcChannel,
  deadline: number,
  handlers: WatchHandlers,
): Promise<WatchStream> {
  let ended = false;
  let stream: GrpcStream | undefined;
  const end = (error: Error | undefined): void => {
    if (ended) return;
    ended = true;
    handlers.onEnd(error);
  };
  stream = await channel.stream("/etcdserverpb.Watch/Watch", deadline, {
    onMessage: (message) => {
      if (ended) return;
      let response: WatchResponse;
      try {
        response = readWatchResponse(new ProtoReader(message));
      } catch (error: unknown) {
        stream?.cancel();
        end(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      handlers.onResponse(response);
    },
    onClose: (error: GrpcError | undefined) => {
      end(error?.code === Status.OK ? undefined : error);
    },
  });
  const open = stream;
  return {
    send: (request) => open.write(encodeWatchRequest(request)),
    close: () => {
      ended = true;
      open.end();
      open.cancel();
    },
    pause: () => open.pause(),
    resume: () => open.resume(),
  };
}
