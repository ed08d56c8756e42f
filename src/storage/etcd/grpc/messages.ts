/**
 * The etcd v3 messages gantry sends and reads, with their field numbers from etcd's
 * api/etcdserverpb/rpc.proto and api/mvccpb/kv.proto. Field names are the proto's; int64 fields
 * are numbers (revisions, counts and versions stay far below 2^53). Fields gantry never reads
 * (cluster and member ids, raft term, leases) are skipped when decoding.
 */

import { frameHeaderBytes } from "./framing.ts";
import { type ProtoReader, ProtoWriter } from "./protobuf.ts";

/** mvccpb.KeyValue. */
export interface KeyValue {
  readonly key: Buffer;
  readonly create_revision: number;
  readonly mod_revision: number;
  readonly version: number;
  readonly value: Buffer;
}

/** etcdserverpb.ResponseHeader: only the revision. */
export interface ResponseHeader {
  readonly revision: number;
}

export interface RangeRequest {
  readonly key: Uint8Array;
  readonly range_end?: Uint8Array;
  readonly limit?: number;
  readonly revision?: number;
  readonly serializable?: boolean;
  readonly keys_only?: boolean;
  readonly count_only?: boolean;
}

export interface RangeResponse {
  readonly header: ResponseHeader;
  readonly kvs: KeyValue[];
  readonly more: boolean;
  readonly count: number;
}

export interface PutRequest {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
  readonly prev_kv?: boolean;
}

export interface PutResponse {
  readonly header: ResponseHeader;
  readonly prev_kv?: KeyValue;
}

export interface DeleteRangeRequest {
  readonly key: Uint8Array;
  readonly range_end?: Uint8Array;
  readonly prev_kv?: boolean;
}

export interface DeleteRangeResponse {
  readonly header: ResponseHeader;
  readonly deleted: number;
  readonly prev_kvs: KeyValue[];
}

/** Compare.CompareResult. */
export const CompareResult = { Equal: 0, Greater: 1, Less: 2, NotEqual: 3 } as const;
/** Compare.CompareTarget. */
export const CompareTarget = { Version: 0, Create: 1, Mod: 2, Value: 3 } as const;

/** etcdserverpb.Compare: exactly one of the target fields, matching `target`. */
export interface Compare {
  readonly key: Uint8Array;
  readonly result: keyof typeof CompareResult;
  readonly target: keyof typeof CompareTarget;
  readonly version?: number;
  readonly create_revision?: number;
  readonly mod_revision?: number;
  readonly value?: Uint8Array;
}

/** etcdserverpb.RequestOp: one of the three. */
export type RequestOp =
  | { readonly request_range: RangeRequest }
  | { readonly request_put: PutRequest }
  | { readonly request_delete_range: DeleteRangeRequest };

/** etcdserverpb.ResponseOp: the one that answers the request at the same position. */
export interface ResponseOp {
  readonly response_range?: RangeResponse;
  readonly response_put?: PutResponse;
  readonly response_delete_range?: DeleteRangeResponse;
}

export interface TxnRequest {
  readonly compare?: readonly Compare[];
  readonly success?: readonly RequestOp[];
  readonly failure?: readonly RequestOp[];
}

export interface TxnResponse {
  readonly header: ResponseHeader;
  readonly succeeded: boolean;
  readonly responses: ResponseOp[];
}

export interface CompactionRequest {
  readonly revision: number;
  readonly physical?: boolean;
}

export interface CompactionResponse {
  readonly header: ResponseHeader;
}

/** etcdserverpb.WatchRequest: a create or a cancel request. */
export type WatchRequest =
  | {
      readonly create_request: {
        readonly key: Uint8Array;
        readonly range_end?: Uint8Array;
        readonly start_revision?: number;
        readonly progress_notify?: boolean;
        readonly prev_kv?: boolean;
      };
    }
  | { readonly cancel_request: { readonly watch_id: number } };

/** mvccpb.Event. */
export interface WatchEventMessage {
  readonly type: "PUT" | "DELETE";
  readonly kv: KeyValue;
  readonly prev_kv?: KeyValue;
}

export interface WatchResponse {
  readonly header: ResponseHeader;
  readonly watch_id: number;
  readonly created: boolean;
  readonly canceled: boolean;
  readonly compact_revision: number;
  readonly cancel_reason: string;
  readonly events: WatchEventMessage[];
}

// ---- encoding ----

const empty = Buffer.alloc(0);

function writeRange(w: ProtoWriter, r: RangeRequest): void {
  w.bytes(1, r.key);
  w.bytes(2, r.range_end);
  w.int(3, r.limit);
  w.int(4, r.revision);
  w.bool(7, r.serializable);
  w.bool(8, r.keys_only);
  w.bool(9, r.count_only);
}

function writePut(w: ProtoWriter, r: PutRequest): void {
  w.bytes(1, r.key);
  w.bytes(2, r.value);
  w.bool(4, r.prev_kv);
}

function writeDeleteRange(w: ProtoWriter, r: DeleteRangeRequest): void {
  w.bytes(1, r.key);
  w.bytes(2, r.range_end);
  w.bool(3, r.prev_kv);
}

function writeCompare(w: ProtoWriter, c: Compare): void {
  w.int(1, CompareResult[c.result]);
  w.int(2, CompareTarget[c.target]);
  w.bytes(3, c.key);
  // The target union: written even when zero, so that etcd knows which one is meant.
  switch (c.target) {
    case "Version":
      w.intAlways(4, c.version ?? 0);
      return;
    case "Create":
      w.intAlways(5, c.create_revision ?? 0);
      return;
    case "Mod":
      w.intAlways(6, c.mod_revision ?? 0);
      return;
    case "Value":
      w.bytesAlways(7, c.value ?? empty);
      return;
  }
}

function writeRequestOp(w: ProtoWriter, op: RequestOp): void {
  if ("request_range" in op) w.message(1, (m) => writeRange(m, op.request_range));
  else if ("request_put" in op) w.message(2, (m) => writePut(m, op.request_put));
  else w.message(3, (m) => writeDeleteRange(m, op.request_delete_range));
}

function writeTxn(w: ProtoWriter, r: TxnRequest): void {
  for (const c of r.compare ?? []) w.message(1, (m) => writeCompare(m, c));
  for (const op of r.success ?? []) w.message(2, (m) => writeRequestOp(m, op));
  for (const op of r.failure ?? []) w.message(3, (m) => writeRequestOp(m, op));
}

/** Encodes `message` after the gRPC frame header's free bytes (the channel fills them). */
function encode<T>(message: T, write: (w: ProtoWriter, message: T) => void): Buffer {
  const w = new ProtoWriter(frameHeaderBytes);
  write(w, message);
  return w.finish();
}

export const encodeRangeRequest = (r: RangeRequest): Buffer => encode(r, writeRange);
export const encodePutRequest = (r: PutRequest): Buffer => encode(r, writePut);
export const encodeDeleteRangeRequest = (r: DeleteRangeRequest): Buffer =>
  encode(r, writeDeleteRange);
export const encodeTxnRequest = (r: TxnRequest): Buffer => encode(r, writeTxn);
export const encodeCompactionRequest = (r: CompactionRequest): Buffer =>
  encode(r, (w, m) => {
    w.int(1, m.revision);
    w.bool(2, m.physical);
  });
export const encodeWatchRequest = (r: WatchRequest): Buffer =>
  encode(r, (w, m) => {
    if ("create_request" in m) {
      const c = m.create_request;
      w.message(1, (x) => {
        x.bytes(1, c.key);
        x.bytes(2, c.range_end);
        x.int(3, c.start_revision);
        x.bool(4, c.progress_notify);
        x.bool(6, c.prev_kv);
      });
    } else {
      const id = m.cancel_request.watch_id;
      w.message(2, (x) => x.int(1, id));
    }
  });

// ---- decoding ----

export function readKeyValue(r: ProtoReader): KeyValue {
  let key: Buffer = empty;
  let value: Buffer = empty;
  let create_revision = 0;
  let mod_revision = 0;
  let version = 0;
  for (let field = r.next(); field !== 0; field = r.next()) {
    if (field === 1) key = r.bytes();
    else if (field === 2) create_revision = r.int();
    else if (field === 3) mod_revision = r.int();
    else if (field === 4) version = r.int();
    else if (field === 5) value = r.bytes();
    else r.skip();
  }
  return { key, create_revision, mod_revision, version, value };
}

function readHeader(r: ProtoReader): ResponseHeader {
  let revision = 0;
  for (let field = r.next(); field !== 0; field = r.next()) {
    if (field === 3) revision = r.int();
    else r.skip();
  }
  return { revision };
}

const noHeader: ResponseHeader = { revision: 0 };

function readRange(r: ProtoReader): RangeResponse {
  let header = noHeader;
  const kvs: KeyValue[] = [];
  let more = false;
  let count = 0;
  for (let field = r.next(); field !== 0; field = r.next()) {
    if (field === 1) header = readHeader(r.message());
    else if (field === 2) kvs.push(readKeyValue(r.message()));
    else if (field === 3) more = r.bool();
    else if (field === 4) count = r.int();
    else r.skip();
  }
  return { header, kvs, more, count };
}

function readPut(r: ProtoReader): PutResponse {
  let header = noHeader;
  let prev: KeyValue | undefined;
  for (let field = r.next(); field !== 0; field = r.next()) {
    if (field === 1) header = readHeader(r.message());
    else if (field === 2) prev = readKeyValue(r.message());
    else r.skip();
  }
  return prev === undefined ? { header } : { header, prev_kv: prev };
}

function readDeleteRange(r: ProtoReader): DeleteRangeResponse {
  let header = noHeader;
  let deleted = 0;
  const prev_kvs: KeyValue[] = [];
  for (let field = r.next(); field !== 0; field = r.next()) {
    if (field === 1) header = readHeader(r.message());
    else if (field === 2) deleted = r.int();
    else if (field === 3) prev_kvs.push(readKeyValue(r.message()));
    else r.skip();
  }
  return { header, deleted, prev_kvs };
}

function readResponseOp(r: ProtoReader): ResponseOp {
  let op: ResponseOp = {};
  for (let field = r.next(); field !== 0; field = r.next()) {
    if (field === 1) op = { response_range: readRange(r.message()) };
    else if (field === 2) op = { response_put: readPut(r.message()) };
    else if (field === 3) op = { response_delete_range: readDeleteRange(r.message()) };
    else r.skip();
  }
  return op;
}

function readTxn(r: ProtoReader): TxnResponse {
  let header = noHeader;
  let succeeded = false;
  const responses: ResponseOp[] = [];
  for (let field = r.next(); field !== 0; field = r.next()) {
    if (field === 1) header = readHeader(r.message());
    else if (field === 2) succeeded = r.bool();
    else if (field === 3) responses.push(readResponseOp(r.message()));
    else r.skip();
  }
  return { header, succeeded, responses };
}

function readCompaction(r: ProtoReader): CompactionResponse {
  let header = noHeader;
  for (let field = r.next(); field !== 0; field = r.next()) {
    if (field === 1) header = readHeader(r.message());
    else r.skip();
  }
  return { header };
}

function readEvent(r: ProtoReader): WatchEventMessage {
  let type: WatchEventMessage["type"] = "PUT";
  let kv: KeyValue | undefined;
  let prev: KeyValue | undefined;
  for (let field = r.next(); field !== 0; field = r.next()) {
    if (field === 1) type = r.int() === 1 ? "DELETE" : "PUT";
    else if (field === 2) kv = readKeyValue(r.message());
    else if (field === 3) prev = readKeyValue(r.message());
    else r.skip();
  }
  const event = {
    type,
    kv: kv ?? { key: empty, value: empty, create_revision: 0, mod_revision: 0, version: 0 },
  };
  return prev === undefined ? event : { ...event, prev_kv: prev };
}

function readWatch(r: ProtoReader): WatchResponse {
  let header = noHeader;
  let watch_id = 0;
  let created = false;
  let canceled = false;
  let compact_revision = 0;
  let cancel_reason = "";
  const events: WatchEventMessage[] = [];
  for (let field = r.next(); field !== 0; field = r.next()) {
    if (field === 1) header = readHeader(r.message());
    else if (field === 2) watch_id = r.int();
    else if (field === 3) created = r.bool();
    else if (field === 4) canceled = r.bool();
    else if (field === 5) compact_revision = r.int();
    else if (field === 6) cancel_reason = r.string();
    else if (field === 11) events.push(readEvent(r.message()));
    else r.skip();
  }
  return { header, watch_id, created, canceled, compact_revision, cancel_reason, events };
}

export {
  readCompaction as readCompactionResponse,
  readDeleteRange as readDeleteRangeResponse,
  readPut as readPutResponse,
  readRange as readRangeResponse,
  readTxn as readTxnResponse,
  readWatch as readWatchResponse,
};
