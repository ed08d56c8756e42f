import type { IncomingMessage } from "node:http";
import { parse as parseYaml } from "yaml";
import { badRequest, tooLarge, unsupportedMediaType } from "../../api/index.ts";
import { errorMessage, isPlainObject } from "../../util/index.ts";
import { mediaTypeOf } from "./accept.ts";

/** Upstream's limit for a request body. */
export const maxBodyBytes = 3 * 1024 * 1024;

/** Reads the whole body, rejecting anything over the limit with 413. */
export function readBody(req: IncomingMessage, limit = maxBodyBytes): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) {
    req.resume();
    return Promise.reject(tooLarge(`Request entity too large: limit is ${limit}`));
  }
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  // Listeners rather than an async iterator: cheaper on the hot path of every write.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        // Drain the rest so the connection stays usable for the 413.
        req.resume();
        reject(tooLarge(`Request entity too large: limit is ${limit}`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onClose = (): void => {
      cleanup();
      reject(new Error("Cannot read the request body: the client closed the connection"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

/** Decodes a protobuf body; supplied by the protobuf module so http/ stays format-agnostic. */
export type ProtobufDecoder = (body: Uint8Array) => Record<string, unknown>;

/** The content types a create or update accepts. */
export const objectMediaTypes = [
  "application/json",
  "application/yaml",
  "application/vnd.kubernetes.protobuf",
] as const;

/** Rejects, before the body is read, a Content-Type no object body can have (415). */
export function checkObjectMediaType(contentType: string | undefined): void {
  switch (mediaTypeOf(contentType)) {
    case "":
    case "application/json":
    case "application/yaml":
    case "application/x-yaml":
    case "text/yaml":
    case "application/vnd.kubernetes.protobuf":
      return;
    default:
      throw unsupportedMediaType(objectMediaTypes);
  }
}

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

/**
 * How deeply a request body may nest. Upstream's JSON decoder stops at 10000 levels; gantry stops
 * at 1000, which no Kubernetes object comes near, so that no recursive step after decoding can
 * exhaust the stack.
 */
export const maxNestingDepth = 1000;

/**
 * Whether JSON `text` has more than `maxNestingDepth` opening brackets: every level of nesting
 * opens one, so a body without that many cannot nest too deeply and needs no walk.
 */
function mayNestTooDeeply(text: string): boolean {
  if (text.length <= maxNestingDepth) return false;
  let opened = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 0x7b || c === 0x5b) && ++opened > maxNestingDepth) return true;
  }
  return false;
}

/** Throws the 400 for a value nested deeper than `maxNestingDepth`; iterative, so never overflows. */
function checkNesting(value: unknown, format: string): void {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [current, depth] = next;
    if (typeof current !== "object" || current === null) continue;
    if (depth > maxNestingDepth) {
      throw badRequest(
        `the body of the request could not be decoded as ${format}: exceeded max depth ${maxNestingDepth}`,
      );
    }
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
}

/** Parses JSON with a BadRequest that says where it broke. */
export function parseJson(body: Buffer | string): unknown {
  const text = typeof body === "string" ? body : body.toString("utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error: unknown) {
    const reason = errorMessage(error);
    throw badRequest(`the body of the request could not be decoded as JSON: ${reason}`);
  }
  if (mayNestTooDeeply(text)) checkNesting(value, "JSON");
  return value;
}

/** Parses YAML 1.2 (a superset of JSON) with a BadRequest on failure. */
export function parseYamlBody(body: Buffer | string): unknown {
  const text = typeof body === "string" ? body : body.toString("utf8");
  let value: unknown;
  try {
    value = parseYaml(text, { uniqueKeys: true, maxAliasCount: 100 });
  } catch (error: unknown) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw badRequest(`the body of the request could not be decoded as YAML: ${reason}`);
  }
  checkNesting(value, "YAML");
  return value;
}
