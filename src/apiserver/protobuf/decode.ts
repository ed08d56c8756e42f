// Decodes a `application/vnd.kubernetes.protobuf` request body into the JSON object the same
// request would have carried as JSON. The body is the magic "k8s\0" followed by a
// runtime.Unknown {typeMeta {apiVersion, kind} = 1, raw = 2, contentEncoding = 3,
// contentType = 4}; `raw` holds the object's message.

import { type ApiError, badRequest, unsupportedMediaType } from "../../api/index.ts";
import { errorMessage } from "../../util/index.ts";
import { decodeMessage } from "./message.ts";
import { messageForKind, messageRegistry } from "./registry.ts";
import { WireError, WireReader, wireType } from "./wire.ts";

/** The media type of Kubernetes protobuf bodies. */
export const protobufContentType = "application/vnd.kubernetes.protobuf";

/** What the server accepts instead, in a 415 for a kind the decoder does not know. */
export const fallbackMediaTypes: readonly string[] = ["application/json", "application/yaml"];

const magic = [0x6b, 0x38, 0x73, 0x00] as const;

/** Options for decodeProtobufObject. */
export interface DecodeOptions {
  /**
   * The kind the endpoint expects (`ConfigMap` for POST …/configmaps). Used only to word errors
   * the way upstream does; it does not change what decodes.
   * @default undefined (errors name the kind found in the body, or none)
   */
  readonly expectedKind?: string;
}

interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

function readEnvelope(bytes: Uint8Array): Envelope {
  const envelope: Envelope = { apiVersion: "", kind: "", raw: new Uint8Array(0) };
  const reader = new WireReader(bytes);
  while (!reader.done()) {
    const tag = reader.tag();
    if (tag.field === 1 || tag.field === 2) {
      if (tag.wireType !== wireType.bytes) {
        throw new WireError(
          `proto: wrong wireType = ${tag.wireType} for field ${tag.field === 1 ? "TypeMeta" : "Raw"}`,
        );
      }
      const value = reader.bytes();
      if (tag.field === 2) {
        envelope.raw = value;
      } else {
        readTypeMeta(value, envelope);
      }
    } else {
      reader.skip(tag.wireType);
    }
  }
  return envelope;
}

function readTypeMeta(bytes: Uint8Array, into: Envelope): void {
  const reader = new WireReader(bytes);
  while (!reader.done()) {
    const tag = reader.tag();
    if (tag.field === 1 || tag.field === 2) {
      const name = tag.field === 1 ? "APIVersion" : "Kind";
      if (tag.wireType !== wireType.bytes) {
        throw new WireError(`proto: wrong wireType = ${tag.wireType} for field ${name}`);
      }
      if (tag.field === 1) into.apiVersion = reader.string();
      else into.kind = reader.string();
    } else {
      reader.skip(tag.wireType);
    }
  }
}

/** Upstream's summary of an unreadable body: hex of the first 30 bytes. */
function summarize(body: Uint8Array): string {
  if (body.length === 0) return "<empty>";
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, 30));
  return body.length > 30 ? `${head.toString("hex")} ...` : head.toString("hex");
}

function unrecognized(message: string, body: Uint8Array, options: DecodeOptions): ApiError {
  if (options.expectedKind === undefined) return badRequest(message);
  return badRequest(
    `the object provided is unrecognized (must be of type ${options.expectedKind}): ${message} (${summarize(body)})`,
  );
}

function messageOf(error: unknown): string {
  return errorMessage(error);
}

/**
 * Decodes a Kubernetes protobuf body into its JSON object: `kind` and `apiVersion` from the
 * envelope, then the object's fields as Go's encoding/json would print them.
 * Throws ApiError 400 BadRequest on malformed data and 415 UnsupportedMediaType for a kind it
 * does not know (see `protobufKinds`). Pure: no I/O, the input is not modified.
 */
export function decodeProtobufObject(
  body: Uint8Array,
  options: DecodeOptions = {},
): Record<string, unknown> {
  if (body.length < magic.length || magic.some((b, i) => body[i] !== b)) {
    throw unrecognized(
      `provided data does not appear to be a protobuf message, expected prefix [${magic.join(" ")}]`,
      body,
      options,
    );
  }
  let envelope: Envelope;
  try {
    envelope = readEnvelope(body.subarray(magic.length));
  } catch (error: unknown) {
    throw unrecognized(messageOf(error), body, options);
  }
  const { apiVersion, kind } = envelope;
  const typeMeta = `runtime.TypeMeta{APIVersion:${JSON.stringify(apiVersion)}, Kind:${JSON.stringify(kind)}}`;
  if (kind === "") throw unrecognized(`Object 'Kind' is missing in '${typeMeta}'`, body, options);
  if (apiVersion === "") {
    throw unrecognized(`Object 'apiVersion' is missing in '${typeMeta}'`, body, options);
  }
  const message = messageForKind(apiVersion, kind);
  if (message === undefined) throw unsupportedMediaType(fallbackMediaTypes);
  try {
    const object = decodeMessage(envelope.raw, message, (name) => messageRegistry.get(name));
    return { kind, apiVersion, ...object };
  } catch (error: unknown) {
    if (!(error instanceof WireError)) throw error;
    const version = apiVersion.slice(apiVersion.indexOf("/") + 1);
    throw badRequest(
      `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${options.expectedKind ?? kind}: ${error.message}`,
    );
  }
}
