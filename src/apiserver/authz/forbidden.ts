/** The 403 a denied request gets, as upstream's `responsewriters.Forbidden`. */
import { ApiError, forbidden } from "../../api/index.ts";
import type { Attributes } from "./attributes.ts";

/** `forbiddenMessage`: `User "alice" cannot list resource "pods" in API group "" in the namespace "x"`. */
export function forbiddenMessage(attributes: Attributes): string {
  const user = JSON.stringify(attributes.user.username);
  if (attributes.kind === "nonResource") {
    return `User ${user} cannot ${attributes.verb} path ${JSON.stringify(attributes.path)}`;
  }
  const resource =
    attributes.subresource === ""
      ? attributes.resource
      : `${attributes.resource}/${attributes.subresource}`;
  const head = `User ${user} cannot ${attributes.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attributes.apiGroup)}`;
  return attributes.namespace === ""
    ? `${head} at the cluster scope`
    : `${head} in the namespace ${JSON.stringify(attributes.namespace)}`;
}

/**
 * `pods "x" is forbidden: User … [: reason]`; a non-resource path gets `forbidden: User …`
 * with no details, as `NewForbidden` with an empty group resource.
 */
export function forbiddenError(attributes: Attributes, reason: string): ApiError {
  const message = forbiddenMessage(attributes);
  const text = reason === "" ? message : `${message}: ${reason}`;
  if (attributes.kind === "nonResource") {
    return new ApiError(403, "Forbidden", `forbidden: ${text}`, {});
  }
  return forbidden(
    { group: attributes.apiGroup, resource: attributes.resource },
    attributes.name,
    text,
  );
}
