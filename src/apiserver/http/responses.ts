import type { ServerResponse } from "node:http";
import { type ApiError, asApiError } from "../../api/index.ts";

/** Headers every API response carries. */
function baseHeaders(res: ServerResponse, warnings: readonly string[]): void {
  res.setHeader("Cache-Control", "no-cache, private");
  if (warnings.length > 0) {
    res.setHeader(
      "Warning",
      warnings.map((w) => `299 - ${JSON.stringify(w.replace(/[\r\n]/g, " "))}`),
    );
  }
}

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
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.statusCode = code;
  res.end(text);
}

/** Writes an error as a Kubernetes Status with its code (and Retry-After when it says so). */
export function writeError(
  res: ServerResponse,
  error: unknown,
  warnings: readonly string[] = [],
): ApiError {
  const apiError = asApiError(error);
  if (res.headersSent) {
    res.destroy();
    return apiError;
  }
  const retry = apiError.details?.retryAfterSeconds;
  if (retry !== undefined) res.setHeader("Retry-After", String(retry));
  writeJson(res, apiError.code, apiError.toStatus(), { warnings });
  return apiError;
}

/** Writes plain text, as `/healthz` and friends answer. */
export function writeText(res: ServerResponse, code: number, text: string): void {
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache, private");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.statusCode = code;
  res.end(text);
}
