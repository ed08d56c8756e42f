/**
 * The PATCH request content types the API server accepts, in the order upstream lists them in
 * its 415 message for built-in kinds. Custom resources accept all but the strategic merge one.
 */
export const patchTypes = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
] as const;

/** One of `patchTypes`. */
export type PatchType = (typeof patchTypes)[number];

/** Whether a Content-Type (already stripped of parameters such as `; charset=`) is a patch type. */
export function isPatchType(contentType: string): contentType is PatchType {
  return (patchTypes as readonly string[]).includes(contentType);
}
