import type { ServerResponse } from "node:http";
import { type ApiError, badRequest } from "../../api/index.ts";
import { parseDuration } from "../../util/index.ts";

/** kube-apiserver's `--request-timeout` default: one minute. */
export const defaultRequestTimeoutMs = 60_000;

/** Upstream's message for a `timeout` query parameter that is not a Go duration. */
const invalidTimeoutInURL = "invalid timeout specified in the request URL";

/**
 * The deadline of a non-long-running request, as upstream's WithRequestDeadline decides it: the
 * `timeout` query parameter when it is shorter than the server's limit and positive, else the
 * limit. A value that is not a Go duration is upstream's 400.
 */
export function requestTimeoutOf(query: URLSearchParams, limitMs: number): number | ApiError {
  const value = query.get("timeout");
  if (value === null || value === "") return limitMs;
  const ms = parseDuration(value);
  if (ms === undefined) {
    return badRequest(`${invalidTimeoutInURL} - time: invalid duration ${JSON.stringify(value)}`);
  }
  return ms > 0 && ms < limitMs ? ms : limitMs;
}

/**
 * Upstream's timeout filter writes this once a request outlives its deadline: the Status with no
 * kind or apiVersion (it encodes `ErrStatus` alone) and no Content-Type, which Go sniffs to
 * text/plain, so kubectl reports "the server was unable to return a response in the time
 * allotted, but may still be processing the request".
 */
export const timeoutBody = `${JSON.stringify({
  metadata: {},
  status: "Failure",
  message: "Timeout: request did not complete within the allotted timeout",
  reason: "Timeout",
  details: {},
  code: 504,
})}\n`;

/**
 * Answers a request whose deadline passed with upstream's 504; when the response has already
 * started, the connection is closed instead, as upstream aborts the handler.
 */
export function writeRequestTimeout(res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames()) {
    if (name !== "audit-id" && !name.startsWith("x-kubernetes-pf-")) res.removeHeader(name);
  }
  res.statusCode = 504;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(timeoutBody));
  res.end(timeoutBody);
}
