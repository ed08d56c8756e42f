import type { IncomingMessage } from "node:http";
import { parse as parseYaml } from "yaml";
import { badRequest, tooLarge, unsupportedMediaType } from "../../api/index.ts";
import { isPlainObject } from "../../util/index.ts";
import { mediaTypeOf } from "./accept.ts";

/** Upstream's limit for a request body. */
export const maxBodyBytes = 3 * 1024 * 1024;

/** Reads the whole body, rejecting anything over the limit with 413. */
export async function readBody(req: IncomingMessage, limit = maxBodyBytes): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) {
    req.resume();
    throw tooLarge(`Request entity too large: limit is ${limit}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) {
      req.resume();
      throw tooLarge(`Request entity too large: limit is ${limit}`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Decodes a protobuf body; supplied by the protobuf module so http/ stays format-agnostic. */
export type ProtobufDecoder = (body: Uint8Array) => Record<string, unknown>;

/** The content types a create or update accepts. */
export const objectMediaTypes = [
  "application/json",
  "application/yaml",
  "application/vnd.kubernetes.protobuf",
] as const;

/** Decodes an object body (create, update, eviction, DeleteOptions) by its Content-Type. */
export function decodeObjectBody(
  body: Buffer,
  contentType: string | undefined,
  protobuf: ProtobufDecoder,
): Record<string, unknown> {
  const media = mediaTypeOf(contentType);
  let value: unknown;
  switch (media) {
    case "":
    case "application/json":
      value = parseJson(body);
      break;
    case "application/yaml":
    case "application/x-yaml":
    case "text/yaml":
      value = parseYamlBody(body);
      break;
    case "application/vnd.kubernetes.protobuf":
      return protobuf(body);
    default:
      throw unsupportedMediaType(objectMediaTypes);
  }
  if (!isPlainObject(value)) {
    throw badRequest("the request body must be a JSON object");
  }
  return value;
}

/** Parses JSON with a BadRequest that says where it broke. */
export function parseJson(body: Buffer | string): unknown {
  const text = typeof body === "string" ? body : body.toString("utf8");
  try {
    return JSON.parse(text);
  } catch (error: unknown) {
    const reason = error instanceof Error ? error.message : String(error);
    throw badRequest(`the body of the request could not be decoded as JSON: ${reason}`);
  }
}

/** Parses YAML 1.2 (a superset of JSON) with a BadRequest on failure. */
export function parseYamlBody(body: Buffer | string): unknown {
  const text = typeof body === "string" ? body : body.toString("utf8");
  try {
    return parseYaml(text, { uniqueKeys: true, maxAliasCount: 100 });
  } catch (error: unknown) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw badRequest(`the body of the request could not be decoded as YAML: ${reason}`);
  }
}
