import { errorMessage, isPlainObject } from "../util/index.ts";

/** `metav1.StatusReason` values gantry returns. */
export type StatusReason =
  | "BadRequest"
  | "Unauthorized"
  | "Forbidden"
  | "NotFound"
  | "AlreadyExists"
  | "Conflict"
  | "Gone"
  | "Invalid"
  | "Expired"
  | "MethodNotAllowed"
  | "NotAcceptable"
  | "RequestEntityTooLarge"
  | "UnsupportedMediaType"
  | "TooManyRequests"
  | "InternalError"
  | "ServiceUnavailable"
  | "Timeout";

/** One entry of `details.causes`: a machine-readable reason, a message and a field path. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** `metav1.StatusDetails`. `kind` holds the resource (or Kind for Invalid), as upstream does. */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** The `metav1.Status` body every error response carries. */
export interface Status {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never> | { resourceVersion?: string };
  status: "Success" | "Failure";
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** A failure that becomes a Kubernetes Status response. */
export class ApiError extends Error {
  readonly code: number;
  readonly reason: StatusReason;
  readonly details: StatusDetails | undefined;

  constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.reason = reason;
    this.details = details;
  }

  toStatus(): Status {
    const status: Status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details !== undefined) status.details = this.details;
    return status;
  }
}

/** Identifies an API resource in messages: `pods`, `deployments.apps`. */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** `deployments.apps` or `pods`: how upstream names a resource in messages. */
export function qualifiedResource(gr: GroupResource): string {
  return gr.group === "" ? gr.resource : `${gr.resource}.${gr.group}`;
}

function detailsFor(gr: GroupResource, name: string): StatusDetails {
  const details: StatusDetails = { name, kind: gr.resource };
  if (gr.group !== "") details.group = gr.group;
  return details;
}

/** 404: `pods "x" not found`. */
export function notFound(gr: GroupResource, name: string): ApiError {
  return new ApiError(
    404,
    "NotFound",
    `${qualifiedResource(gr)} "${name}" not found`,
    detailsFor(gr, name),
  );
}

/** 409 AlreadyExists: `pods "x" already exists`. */
export function alreadyExists(gr: GroupResource, name: string): ApiError {
  return new ApiError(
    409,
    "AlreadyExists",
    `${qualifiedResource(gr)} "${name}" already exists`,
    detailsFor(gr, name),
  );
}

/** The message of an optimistic-concurrency failure, in kubectl's familiar words. */
export const objectModifiedMessage =
  "the object has been modified; please apply your changes to the latest version and try again";

/** 409 Conflict: `Operation cannot be fulfilled on pods "x": <message>`. */
export function conflict(gr: GroupResource, name: string, message: string): ApiError {
  return new ApiError(
    409,
    "Conflict",
    `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${message}`,
    detailsFor(gr, name),
  );
}

/** 400 BadRequest with free text. */
export function badRequest(message: string, causes?: StatusCause[]): ApiError {
  return new ApiError(400, "BadRequest", message, causes === undefined ? undefined : { causes });
}

/** 403 Forbidden: `pods "x" is forbidden: <message>`. */
export function forbidden(gr: GroupResource, name: string, message: string): ApiError {
  const subject = name === "" ? qualifiedResource(gr) : `${qualifiedResource(gr)} "${name}"`;
  return new ApiError(
    403,
    "Forbidden",
    `${subject} is forbidden: ${message}`,
    detailsFor(gr, name),
  );
}

/** 405 MethodNotAllowed. */
export function methodNotAllowed(): ApiError {
  return new ApiError(
    405,
    "MethodNotAllowed",
    "the server does not allow this method on the requested resource",
    {},
  );
}

/** 404 for a path that names nothing the server serves. */
export function pathNotFound(): ApiError {
  return new ApiError(404, "NotFound", "the server could not find the requested resource", {});
}

/** 410 Expired: the requested revision has been compacted away. */
export function expired(message: string): ApiError {
  return new ApiError(410, "Expired", message);
}

/** 410 Gone. */
export function gone(message: string): ApiError {
  return new ApiError(410, "Gone", message);
}

/** 413 RequestEntityTooLarge. */
export function tooLarge(message: string): ApiError {
  return new ApiError(413, "RequestEntityTooLarge", message);
}

/** 415 UnsupportedMediaType listing what the endpoint accepts. */
export function unsupportedMediaType(accepted: readonly string[]): ApiError {
  return new ApiError(
    415,
    "UnsupportedMediaType",
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
  );
}

/** 429 TooManyRequests, with `details.retryAfterSeconds` when the client should wait. */
export function tooManyRequests(
  message: string,
  options: { retryAfterSeconds?: number; causes?: StatusCause[] } = {},
): ApiError {
  const details: StatusDetails = {};
  if (options.causes !== undefined) details.causes = options.causes;
  if (options.retryAfterSeconds !== undefined)
    details.retryAfterSeconds = options.retryAfterSeconds;
  return new ApiError(429, "TooManyRequests", message, details);
}

/** 500 InternalError. */
export function internalError(message: string): ApiError {
  return new ApiError(500, "InternalError", `Internal error occurred: ${message}`, {
    causes: [{ message }],
  });
}

/** 503 ServiceUnavailable. */
export function serviceUnavailable(message: string): ApiError {
  return new ApiError(503, "ServiceUnavailable", message);
}

/** 504 Timeout. */
export function timeout(message: string, causes?: StatusCause[]): ApiError {
  return new ApiError(504, "Timeout", message, causes === undefined ? {} : { causes });
}

/** 401 Unauthorized. */
export function unauthorized(): ApiError {
  return new ApiError(401, "Unauthorized", "Unauthorized");
}

/** Wraps anything thrown into an ApiError; unknown failures become a 500 that keeps the cause. */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const message = errorMessage(error);
  const wrapped = internalError(message);
  if (error instanceof Error) wrapped.cause = error;
  return wrapped;
}

/** Reads a Status body from a response, if it is one. */
export function isStatus(value: unknown): value is Status {
  return isPlainObject(value) && value["kind"] === "Status";
}
