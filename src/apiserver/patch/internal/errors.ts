import { ApiError, badRequest } from "../../../api/index.ts";

/**
 * How the API server reports a patch that cannot be applied.
 *
 * - A patch document it cannot decode, or a strategic-merge directive in a malformed format,
 *   is a 400 BadRequest.
 * - A JSON patch operation that does not apply (and a few strategic-merge failures) is a 422
 *   with reason Invalid and empty details.
 * - Every other strategic-merge failure is returned by upstream as a plain Go error, which the
 *   API server turns into a 500 whose message is the error text (upstream leaves `reason`
 *   empty; `InternalError` is the closest reason gantry can express).
 */

/** 400 BadRequest with the decoder's or directive parser's message. */
export function malformedPatch(message: string): ApiError {
  return badRequest(message);
}

/** 422 Invalid: the patch is well-formed but cannot be applied to this object. */
export function patchDoesNotApply(message: string): ApiError {
  return new ApiError(422, "Invalid", message, {});
}

/** 500 carrying the patch library's own error text, as upstream returns it. */
export function patchFailed(message: string): ApiError {
  return new ApiError(500, "InternalError", message);
}
