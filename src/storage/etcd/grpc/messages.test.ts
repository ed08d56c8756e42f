import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type EtcdCluster, startEtcd } from "../../../testing/etcd.ts";
import { ensureNoLeaksAfterSuite } from "../../../testing/leak-check.ts";
import { GrpcChannel } from "./channel.ts";
import { newKVClient, openWatch } from "./kv.ts";
import {
  encodeCompactionRequest,
  encodeDeleteRangeRequest,
  encodePutRequest,
  encodeRangeRequest,
  encodeTxnRequest,
  encodeWatchRequest,
  readRangeResponse,
  readTxnResponse,
  readWatchResponse,
  type WatchResponse,
} from "./messages.ts";
import { ProtoReader } from "./protobuf.ts";

const b = (text: string): Buffer => Buffer.from(text);
/** An encoded request without the 5 bytes left for the gRPC frame header. */
const body = (frame: Buffer): string => frame.subarray(5).toString("hex");
const decode = <T>(hex: string, read: (r: ProtoReader) => T): T =>
  read(new ProtoReader(Buffer.from(hex, "hex")));

describe("etcd request encoding (field numbers of rpc.proto)", () => {
  test("RangeRequest: key 1, range_end 2, limit 3, revision 4, keys_only 8, count_only 9", () => {
    assert.equal(
      body(
        encodeRangeRequest({
          key: b("a"),
          range_end: b("b"),
          limit: 500,
          revision: 7,
          keys_only: true,
          count_only: true,
        }),
      ),
      "0a016112016218f40320074001" + "4801",
    );
  });

  test("PutRequest: key 1, value 2, prev_kv 4", () => {
    assert.equal(
      body(encodePutRequest({ key: b("k"), value: b("v"), prev_kv: true })),
      "0a016b12017620 01".replace(" ", ""),
    );
  });

  test("DeleteRangeRequest: key 1, range_end 2, prev_kv 3", () => {
    assert.equal(body(encodeDeleteRangeRequest({ key: b("k"), prev_kv: true })), "0a016b1801");
  });

  test("TxnRequest: compares with their oneof target written even when 0, then success and failure ops", () => {
    const encoded = body(
      encodeTxnRequest({
        compare: [{ key: b("k"), target: "Create", result: "Equal", create_revision: 0 }],
        success: [{ request_put: { key: b("k"), value: b("v") } }],
        failure: [{ request_range: { key: b("k"), keys_only: true } }],
      }),
    );
    // compare(1){target=1 (Create), key, create_revision(5)=0}, success(2){request_put(2)},
    // failure(3){request_range(1){key, keys_only}}
    assert.equal(
      encoded,
      "0a07" +
        "1001" +
        "1a016b" +
        "2800" +
        "1208" +
        "1206" +
        "0a016b120176" +
        "1a07" +
        "0a05" +
        "0a016b4001",
    );
  });

  test("Compare: Mod/Greater and Version/NotEqual and Value map to etcd's enum numbers", () => {
    const encoded = body(
      encodeTxnRequest({
        compare: [
          { key: b("k"), target: "Mod", result: "Greater", mod_revision: 5 },
          { key: b("k"), target: "Version", result: "NotEqual", version: 2 },
          { key: b("k"), target: "Value", result: "Less", value: b("x") },
        ],
      }),
    );
    assert.equal(
      encoded,
      "0a09" +
        "0801" +
        "1002" +
        "1a016b" +
        "3005" +
        "0a07" +
        "0803" +
        "1a016b" +
        "2002" +
        "0a0a" +
        "0802" +
        "1003" +
        "1a016b" +
        "3a0178",
    );
  });

  test("CompactionRequest and WatchRequest (create with start_revision and prev_kv; cancel)", () => {
    assert.equal(body(encodeCompactionRequest({ revision: 300 })), "08ac02");
    assert.equal(
      body(
        encodeWatchRequest({
          create_request: { key: b("a"), range_end: b("b"), start_revision: 3, prev_kv: true },
        }),
      ),
      "0a0a" + "0a0161" + "120162" + "1803" + "3001",
    );
    assert.equal(body(encodeWatchRequest({ cancel_request: { watch_id: 4 } })), "12020804");
  });
});

// Responses captured from etcd 3.4.23 (the cluster and member ids are 64-bit varints).
const header = "0a1a0895c59bda84f9dda5f90110d6f7b3ebe4a38ca0a801";

describe("etcd response decoding (bytes captured from etcd 3.4)", () => {
  test("TxnResponse: succeeded, the put's prev_kv, the header's revision", () => {
    const txn = decode(
      `${header}18032002` +
        "10011a2412220a021803121c0a0b2f72656769737472792f611002180220012a077b226e223a317d1a0612040a021803",
      readTxnResponse,
    );
    assert.equal(txn.header.revision, 3);
    assert.equal(txn.succeeded, true);
    assert.equal(txn.responses.length, 2);
    const prev = txn.responses[0]?.response_put?.prev_kv;
    assert.equal(prev?.key.toString(), "/registry/a");
    assert.equal(prev?.value.toString(), '{"n":1}');
    assert.deepEqual([prev?.create_revision, prev?.mod_revision, prev?.version], [2, 2, 1]);
    assert.equal(txn.responses[1]?.response_put?.prev_kv, undefined);
    assert.equal(txn.responses[1]?.response_put?.header.revision, 3);
  });

  test("RangeResponse: kvs and count", () => {
    const range = decode(
      `${header}18032002` + "121c0a0b2f72656769737472792f611002180320022a077b226e223a327d2001",
      readRangeResponse,
    );
    assert.equal(range.header.revision, 3);
    assert.equal(range.count, 1);
    assert.equal(range.more, false);
    assert.deepEqual(
      range.kvs.map((kv) => [
        kv.key.toString(),
        kv.value.toString(),
        kv.create_revision,
        kv.mod_revision,
        kv.version,
      ]),
      [["/registry/a", '{"n":2}', 2, 3, 2]],
    );
  });

  test("WatchResponse: created; put events with prev_kv; a delete event", () => {
    const created = decode(`${header}180320021801`, readWatchResponse);
    assert.deepEqual([created.created, created.canceled, created.events.length], [true, false, 0]);
    const puts = decode(
      `${header}180320025a1e121c0a0b2f72656769737472792f611002180220012a077b226e223a317d5a3c121c0a0b2f72656769737472792f611002180320022a077b226e223a327d1a1c0a0b2f72656769737472792f611002180220012a077b226e223a317d`,
      readWatchResponse,
    );
    assert.deepEqual(
      puts.events.map((e) => [
        e.type,
        e.kv.mod_revision,
        e.kv.value.toString(),
        e.prev_kv?.value.toString(),
      ]),
      [
        ["PUT", 2, '{"n":1}', undefined],
        ["PUT", 3, '{"n":2}', '{"n":1}'],
      ],
    );
    const deleted = decode(
      `${header}180420025a310801120f0a0b2f72656769737472792f6118041a1c0a0b2f72656769737472792f611002180320022a077b226e223a327d`,
      readWatchResponse,
    );
    const [event] = deleted.events;
    assert.equal(event?.type, "DELETE");
    assert.equal(event?.kv.mod_revision, 4);
    assert.equal(event?.kv.value.length, 0);
    assert.equal(event?.prev_kv?.value.toString(), '{"n":2}');
  });

  test("WatchResponse: a canceled watch's compact_revision and cancel_reason", () => {
    // watch_id 1, canceled, compact_revision 5, cancel_reason "etcdserver: mvcc: required revision has been compacted"
    const reason = "etcdserver: mvcc: required revision has been compacted";
    const hex =
      `${header}18012002` +
      "1001" +
      "2001" +
      "2805" +
      `32${reason.length.toString(16)}${Buffer.from(reason).toString("hex")}`;
    const canceled = decode(hex, readWatchResponse);
    assert.deepEqual(
      [canceled.watch_id, canceled.canceled, canceled.compact_revision, canceled.cancel_reason],
      [1, true, 5, reason],
    );
  });
});

describe("etcd messages against a running etcd", () => {
  let cluster: EtcdCluster | undefined;
  let channel: GrpcChannel | undefined;
  before(async () => {
    cluster = await startEtcd({ members: 1 });
    channel = new GrpcChannel({ url: cluster.endpoints[0] ?? "" });
  });
  after(async () => {
    channel?.close();
    await cluster?.close();
  });
  ensureNoLeaksAfterSuite();
  const deadline = (): { deadline: number } => ({ deadline: Date.now() + 5000 });

  test("KV: put, txn with compares, range at a revision, delete with prev_kv, compact", async () => {
    if (channel === undefined) throw new Error("etcd did not start");
    const kv = newKVClient(channel);
    const put = await kv.put({ key: b("/t/a"), value: b("1") }, deadline());
    const first = put.header.revision;
    assert.ok(first > 0, `a put has a revision (${first})`);
    const lost = await kv.txn(
      {
        compare: [{ key: b("/t/a"), target: "Create", result: "Equal", create_revision: 0 }],
        success: [{ request_put: { key: b("/t/a"), value: b("x") } }],
        failure: [{ request_range: { key: b("/t/a"), keys_only: true } }],
      },
      deadline(),
    );
    assert.equal(lost.succeeded, false);
    const current = lost.responses[0]?.response_range?.kvs[0];
    assert.deepEqual([current?.mod_revision, current?.value.length], [first, 0], "keys_only");
    const won = await kv.txn(
      {
        compare: [{ key: b("/t/a"), target: "Mod", result: "Equal", mod_revision: first }],
        success: [{ request_put: { key: b("/t/a"), value: b("2"), prev_kv: true } }],
      },
      deadline(),
    );
    assert.equal(won.succeeded, true);
    assert.equal(won.header.revision, first + 1);
    assert.equal(won.responses[0]?.response_put?.prev_kv?.value.toString(), "1");
    const old = await kv.range({ key: b("/t/"), range_end: b("/t0"), revision: first }, deadline());
    assert.deepEqual(
      old.kvs.map((x) => x.value.toString()),
      ["1"],
    );
    const counted = await kv.range(
      { key: b("/t/"), range_end: b("/t0"), count_only: true },
      deadline(),
    );
    assert.deepEqual([counted.count, counted.kvs.length], [1, 0]);
    const deleted = await kv.deleteRange({ key: b("/t/a"), prev_kv: true }, deadline());
    assert.deepEqual([deleted.deleted, deleted.prev_kvs[0]?.value.toString()], [1, "2"]);
    await kv.compact({ revision: first + 1 }, deadline());
    await assert.rejects(
      kv.range({ key: b("/t/a"), revision: first }, deadline()),
      /11 OUT_OF_RANGE: etcdserver: mvcc: required revision has been compacted/,
    );
  });

  test("Watch: created, then events from start_revision with prev_kv, then cancel", async () => {
    if (channel === undefined) throw new Error("etcd did not start");
    const kv = newKVClient(channel);
    const a = await kv.put({ key: b("/w/a"), value: b("1") }, deadline());
    await kv.put({ key: b("/w/a"), value: b("2") }, deadline());
    const responses: WatchResponse[] = [];
    let wake: (() => void) | undefined;
    const stream = await openWatch(channel, Date.now() + 5000, {
      onResponse: (r) => {
        responses.push(r);
        wake?.();
      },
      onEnd: () => wake?.(),
    });
    const until = async (ok: () => boolean): Promise<void> => {
      while (!ok())
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
    };
    stream.send({
      create_request: {
        key: b("/w/"),
        range_end: b("/w0"),
        start_revision: a.header.revision,
        prev_kv: true,
      },
    });
    await until(() => responses.flatMap((r) => r.events).length >= 2);
    assert.equal(responses[0]?.created, true, "the first response confirms the watch");
    const events = responses.flatMap((r) => r.events);
    assert.deepEqual(
      events.map((e) => [e.type, e.kv.value.toString(), e.prev_kv?.value.toString()]),
      [
        ["PUT", "1", undefined],
        ["PUT", "2", "1"],
      ],
    );
    const id = responses[0]?.watch_id ?? -1;
    stream.send({ cancel_request: { watch_id: id } });
    await until(() => responses.some((r) => r.canceled));
    stream.close();
  });
});
