// The printers for kinds without a built-in one: the default convertor (NAME CREATED AT) and the
// CRD convertor driven by additionalPrinterColumns.

import { evaluateJsonPath, parseJsonPath } from "../../api/index.ts";
import { humanAge } from "./human-duration.ts";
import { column, creationTimestampDescription, nameColumn } from "./internal/columns.ts";
import { goPrint } from "./internal/go-format.ts";
import { at, nameOf } from "./internal/read.ts";
import type { TableCell, TableColumnDefinition, TablePrinter } from "./table.ts";

/** `time.Time.UTC().Format(time.RFC3339)` of a timestamp; Go's zero time when unset. */
function rfc3339(timestamp: unknown): string {
  const t = typeof timestamp === "string" ? Date.parse(timestamp) : Number.NaN;
  if (Number.isNaN(t)) return "0001-01-01T00:00:00Z";
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * The default table convertor (`rest.NewDefaultTableConvertor`): NAME and CREATED AT, the
 * creation time as an RFC3339 string (not humanized). Used for customresourcedefinitions and any
 * kind without a printer.
 */
export const defaultPrinter: TablePrinter = {
  columns: [nameColumn, column("Created At", "date", creationTimestampDescription)],
  printRow: (object) => ({
    cells: [nameOf(object), rfc3339(at(object, "metadata", "creationTimestamp"))],
  }),
};

/** A CRD version's `additionalPrinterColumns` entry. */
export interface CustomResourceColumn {
  readonly name: string;
  /** `string`, `integer`, `number`, `boolean` or `date`. */
  readonly type: string;
  readonly format?: string;
  readonly description?: string;
  readonly priority?: number;
  readonly jsonPath: string;
}

/** The column a CRD version gets when it declares none. */
const defaultCustomResourceColumns: readonly CustomResourceColumn[] = [
  {
    name: "Age",
    type: "date",
    description: creationTimestampDescription,
    jsonPath: ".metadata.creationTimestamp",
  },
];

/** `cellForJSONValue`: converts a JSONPath match to the cell of a typed column. */
function typedCell(type: string, value: unknown, now: Date): TableCell {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "string":
      return goPrint(value);
    case "integer":
      return typeof value === "number" ? Math.trunc(value) : null;
    case "number":
      return typeof value === "number" ? value : null;
    case "boolean":
      return typeof value === "boolean" ? value : null;
    case "date": {
      if (typeof value !== "string") return null;
      if (Number.isNaN(Date.parse(value))) return "<invalid>";
      return humanAge(value, now);
    }
    default:
      return null;
  }
}

/**
 * The CRD table convertor: NAME plus one column per `additionalPrinterColumns` entry (or a single
 * `Age` date column when there are none). Each cell is the first JSONPath match: `date` cells are
 * humanized ages, `integer` stays a number, `string` prints as Go does, and a missing or
 * mistyped value is null. Throws SyntaxError for a malformed jsonPath.
 */
export function crdPrinter(columns: readonly CustomResourceColumn[]): TablePrinter {
  const effective = columns.length === 0 ? defaultCustomResourceColumns : columns;
  const paths = effective.map((c) => parseJsonPath(c.jsonPath));
  const definitions: TableColumnDefinition[] = [
    nameColumn,
    ...effective.map((c) =>
      column(
        c.name,
        c.type,
        c.description !== undefined && c.description !== ""
          ? c.description
          : `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
        { format: c.format ?? "", priority: c.priority ?? 0 },
      ),
    ),
  ];
  return {
    columns: definitions,
    printRow: (object, now) => ({
      cells: [
        nameOf(object),
        ...effective.map((c, i) => {
          const path = paths[i];
          const results = path === undefined ? [] : evaluateJsonPath(path, object);
          return results.length === 0 ? null : typedCell(c.type, results[0], now);
        }),
      ],
    }),
  };
}
