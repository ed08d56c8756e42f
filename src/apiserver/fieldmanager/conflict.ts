import { ApiError, type StatusCause } from "../../api/index.ts";
import type { FieldSet } from "./field-set.ts";
import { formatPath, goQuote, type Path } from "./path-element.ts";

/** A field the applier wants to change that another manager owns. */
export interface Conflict {
  /** The other manager's identifier (see `managerIdentifier`). */
  readonly manager: string;
  readonly path: Path;
}

/** Thrown inside the field manager when an apply conflicts; becomes a 409 at the boundary. */
export class ConflictsError extends Error {
  readonly conflicts: readonly Conflict[];

  constructor(conflicts: readonly Conflict[]) {
    super(conflictMessage(conflicts));
    this.name = "ConflictsError";
    this.conflicts = conflicts;
  }
}

/** Conflicts per manager, managers sorted by identifier, paths in set order. */
export function conflictsFrom(sets: ReadonlyMap<string, FieldSet>): Conflict[] {
  const out: Conflict[] = [];
  for (const manager of [...sets.keys()].sort()) {
    for (const path of sets.get(manager)?.paths() ?? []) out.push({ manager, path });
  }
  return out;
}

/**
 * How upstream names a manager in conflict messages: `"name"` for an applier,
 * `"name" using apps/v1` for an updater, with ` with subresource "status"` after the name when
 * the entry belongs to a subresource.
 */
export function printManager(identifier: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(identifier);
  } catch {
    return goQuote(identifier);
  }
  const entry = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<
    string,
    unknown
  >;
  const text = (k: string): string => (typeof entry[k] === "string" ? (entry[k] as string) : "");
  let out = goQuote(text("manager"));
  if (text("subresource") !== "") out += ` with subresource ${goQuote(text("subresource"))}`;
  if (text("operation") === "Update") out += ` using ${text("apiVersion")}`;
  return out;
}

/** Upstream's conflict message, one line for one conflict, grouped by manager otherwise. */
export function conflictMessage(conflicts: readonly Conflict[]): string {
  const [only] = conflicts;
  if (conflicts.length === 1 && only !== undefined) {
    return `Apply failed with 1 conflict: conflict with ${printManager(only.manager)}: ${formatPath(only.path)}`;
  }
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) {
    const paths = byManager.get(c.manager);
    if (paths === undefined) byManager.set(c.manager, [c.path]);
    else paths.push(c.path);
  }
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const path of byManager.get(manager) ?? []) lines.push(`- ${formatPath(path)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join("\n")}`;
}

/** The 409 Conflict upstream returns: the message plus one `FieldManagerConflict` cause per field. */
export function conflictError(conflicts: readonly Conflict[]): ApiError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: "FieldManagerConflict",
    message: `conflict with ${printManager(c.manager)}`,
    field: formatPath(c.path),
  }));
  return new ApiError(409, "Conflict", conflictMessage(conflicts), { causes });
}
