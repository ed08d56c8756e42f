/**
 * Image references and ids as containerd reports them: `nginx` runs as
 * `docker.io/library/nginx:latest` with id `docker.io/library/nginx@sha256:…`. Digests and
 * container ids are derived deterministically so that statuses are stable across restarts.
 */
import { createHash } from "node:crypto";

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Docker's reference normalization: registry, `library/` for official images, `:latest`. */
export function normalizeImage(image: string): string {
  if (image === "") return "";
  const slash = image.indexOf("/");
  const first = slash < 0 ? "" : image.slice(0, slash);
  const hasRegistry = first.includes(".") || first.includes(":") || first === "localhost";
  let named: string;
  if (slash < 0) named = `docker.io/library/${image}`;
  else if (!hasRegistry) named = `docker.io/${image}`;
  else named = image;
  const lastPart = named.slice(named.lastIndexOf("/") + 1);
  if (!named.includes("@") && !lastPart.includes(":")) named = `${named}:latest`;
  return named;
}

/** The repository of a normalized reference: `docker.io/library/nginx`. */
function repositoryOf(normalized: string): string {
  const at = normalized.indexOf("@");
  if (at >= 0) return normalized.slice(0, at);
  const slash = normalized.lastIndexOf("/");
  const colon = normalized.lastIndexOf(":");
  return colon > slash ? normalized.slice(0, colon) : normalized;
}

/** The image id (`repo@sha256:…`), the digest given in the reference or a derived one. */
export function imageIdOf(image: string): string {
  if (image === "") return "";
  const normalized = normalizeImage(image);
  const at = normalized.indexOf("@");
  if (at >= 0) return normalized;
  return `${repositoryOf(normalized)}@sha256:${sha256(`image:${normalized}`)}`;
}

/** `containerd://<64 hex>`, unique per pod, container and restart. */
export function containerIdOf(podUid: string, container: string, instance: number): string {
  return `containerd://${sha256(`container:${podUid}/${container}/${instance}`)}`;
}
