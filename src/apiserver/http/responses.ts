import type { ServerResponse } from "node:http";
import { type ApiError, asApiError, serviceUnavailable, timeout } from "../../api/index.ts";
import { StorageError } from "../../storage/index.ts";

/** Headers every API response carries. */
function baseHeaders(res: ServerResponse, warnings: readonly string[]): void {
  res.setHeader("Cache-Control", "no-cache, private");
  setWarnings(res, warnings);
}

/** `Warning: 299 - "…"` headers, one per warning, as kube-apiserver's warning recorder writes. */
export function setWarnings(res: ServerResponse, warnings: readonly string[]): void {
  if (warnings.length > 0) {
    res.setHeader(
      "Warning",
      warnings.map((w) => `299 - ${JSON.stringify(w.replace(/[\r\n]/g, " "))}`),
    );
  }
}

/** Bodies longer than this (in UTF-16 units) are encoded to bytes before writing. */
const largeBody = 64 * 1024;

/** Writes a JSON body (already serialized or a value) with the given status code. */
export function writeJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  options: { warnings?: readonly string[]; contentType?: string } = {},
): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  baseHeaders(res, options.warnings ?? []);
  res.setHeader("Content-Type", options.contentType ?? "application/json");
  res.statusCode = code;
  if (text.length > largeBody) {
    // Encode once: measuring a large string and then writing it would walk it twice.
    const bytes = Buffer.from(text);
    res.setHeader("Content-Length", bytes.length);
    res.end(bytes);
    return;
  }
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/**
 * Writes a list as `<head>,"items":[<items>]}` where `head` is the list's JSON without its closing
 * brace. A large list goes out in batches with chunked encoding, as upstream's streaming encoder
 * does, rather than as one string of every item.
 */
export function writeJsonList(
  res: ServerResponse,
  head: string,
  items: readonly string[],
  warnings: readonly string[] = [],
): void {
  if (items.length <= listBatch) {
    writeJson(res, 200, `${head},"items":[${items.join(",")}]}`, { warnings });
    return;
  }
  baseHeaders(res, warnings);
  res.setHeader("Content-Type", "application/json");
  res.statusCode = 200;
  res.cork();
  res.write(`${head},"items":[`);
  for (let i = 0; i < items.length; i += listBatch) {
    const batch = items.slice(i, i + listBatch).join(",");
    res.write(i === 0 ? batch : `,${batch}`);
  }
  res.end("]}");
  res.uncork();
}

/** Items per write of a streamed list. */
const listBatch = 500;

/** Writes an error as a Kubernetes Status with its code (and Retry-After when it says so). */
export function writeError(
  res: ServerResponse,
  error: unknown,
  warnings: readonly string[] = [],
): ApiError {
  const apiError = asApiError(storageUnavailable(error));
  if (res.headersSent) {
    res.destroy();
    return apiError;
  }
  const retry = apiError.details?.retryAfterSeconds;
  if (retry !== undefined) res.setHeader("Retry-After", String(retry));
  writeJson(res, apiError.code, apiError.toStatus(), { warnings });
  return apiError;
}

/**
 * Storage that did not answer in time (etcd down or unreachable) is a 504 Timeout, as upstream
 * answers a request whose storage call outlives its deadline, with a message that says what to
 * check; storage closed by a shutdown is a 503.
 */
function storageUnavailable(error: unknown): unknown {
  if (error instanceof StorageError && error.reason === "Unavailable") {
    return error.message.endsWith("(storage is closed)")
      ? serviceUnavailable(error.message)
      : timeout(`Timeout: ${error.message}`);
  }
  return error;
}

/** Writes plain text, as `/healthz` and friends answer. */
export function writeText(res: ServerResponse, code: number, text: string): void {
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache, private");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.statusCode = code;
  res.end(text);
}
