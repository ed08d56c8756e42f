// kubectl's columns for resourcequotas (NAME AGE REQUEST LIMIT) and limitranges (NAME CREATED AT).

import { canonicalQuantity } from "../../api/index.ts";
import { humanAge } from "./human-duration.ts";
import { ageColumn, column, creationTimestampDescription, nameColumn } from "./internal/columns.ts";
import { at, nameOf, type Obj, stringMap } from "./internal/read.ts";
import type { TablePrinter } from "./table.ts";

/** A quantity as `Quantity.String()` prints it; a missing one is `0`. */
function quantityText(value: string | undefined): string {
  if (value === undefined) return "0";
  try {
    return canonicalQuantity(value);
  } catch (error: unknown) {
    if (error instanceof SyntaxError) return value;
    throw error;
  }
}

/**
 * `printResourceQuota`: `used/hard` for each resource of `spec.hard`, sorted; `limits.*` ones in
 * LIMIT, the others in REQUEST.
 */
function quotaCells(quota: Obj): [string, string] {
  const hard = stringMap(quota, "spec", "hard");
  const statusHard = stringMap(quota, "status", "hard");
  const used = stringMap(quota, "status", "used");
  const request: string[] = [];
  const limit: string[] = [];
  for (const resource of Object.keys(hard).sort()) {
    const cell = `${resource}: ${quantityText(used[resource])}/${quantityText(statusHard[resource])}`;
    const pieces = resource.split(".");
    if (pieces.length > 1 && pieces[0] === "limits") limit.push(cell);
    else request.push(cell);
  }
  return [request.join(", "), limit.join(", ")];
}

/** Printer for core/v1 resourcequotas: NAME AGE REQUEST LIMIT. */
export const resourceQuotaPrinter: TablePrinter = {
  columns: [
    nameColumn,
    ageColumn,
    column(
      "Request",
      "string",
      "Request represents a minimum amount of cpu/memory that a container may consume.",
    ),
    column(
      "Limit",
      "string",
      "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.",
    ),
  ],
  printRow: (quota, now) => {
    const [request, limit] = quotaCells(quota);
    return {
      cells: [
        nameOf(quota),
        humanAge(at(quota, "metadata", "creationTimestamp"), now),
        request,
        limit,
      ],
    };
  },
};

/** Printer for core/v1 limitranges: NAME CREATED AT (the timestamp itself). */
export const limitRangePrinter: TablePrinter = {
  columns: [nameColumn, column("Created At", "date", creationTimestampDescription)],
  printRow: (lr) => {
    const created = at(lr, "metadata", "creationTimestamp");
    return { cells: [nameOf(lr), typeof created === "string" ? created : null] };
  },
};
