// The `meta.k8s.io/v1` Table kubectl asks for with
// `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`, and the printer seam that fills it.

/** `metav1.TableColumnDefinition`; every field is always serialized, as upstream does. */
export interface TableColumnDefinition {
  /** Printed upper-cased by kubectl (`Nominated Node` → `NOMINATED NODE`). */
  readonly name: string;
  /** OpenAPI type: `string`, `integer`, `number`, `boolean` or `date`. */
  readonly type: string;
  /** `name` for the object-name column, else usually `""`. */
  readonly format: string;
  readonly description: string;
  /** 0 for default columns; > 0 only shows with `-o wide`. */
  readonly priority: number;
}

/** One cell: strings (ages are pre-formatted strings), JSON numbers, booleans, or null. */
export type TableCell = string | number | boolean | null;

/** `metav1.TableRowCondition` (pods report `Completed` for Succeeded/Failed). */
export interface TableRowCondition {
  readonly type: string;
  readonly status: "True" | "False" | "Unknown";
  readonly reason?: string;
  readonly message?: string;
}

/** `metav1.TableRow`: cells in column order, plus the (partial) object kubectl reads labels from. */
export interface TableRow {
  readonly cells: readonly TableCell[];
  readonly conditions?: readonly TableRowCondition[];
  /** PartialObjectMetadata (default), the full object, or null for `includeObject=None`. */
  readonly object: unknown;
}

/** `metav1.ListMeta` as a Table carries it. */
export interface TableListMeta {
  readonly resourceVersion?: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/** `metav1.Table`. `columnDefinitions` is null when headers are suppressed (watch after the first event). */
export interface Table {
  readonly kind: "Table";
  readonly apiVersion: "meta.k8s.io/v1";
  readonly metadata: TableListMeta;
  readonly columnDefinitions: readonly TableColumnDefinition[] | null;
  readonly rows: readonly TableRow[];
}

/** A plain JSON API object as the apiserver holds it. */
export type ApiObject = Readonly<Record<string, unknown>>;

/** The printed part of one row. */
export interface PrintedRow {
  /** Same length and order as the printer's `columns`. */
  readonly cells: readonly TableCell[];
  readonly conditions?: readonly TableRowCondition[];
}

/**
 * Turns one object into one row. Implementations are pure: they read the object defensively
 * (any field may be missing), never mutate it, and take `now` as the reference time for ages.
 */
export interface TablePrinter {
  readonly columns: readonly TableColumnDefinition[];
  printRow(object: ApiObject, now: Date): PrintedRow;
}

/** `?includeObject=`: what each row's `object` holds. Upstream's default is `Metadata`. */
export type IncludeObjectPolicy = "None" | "Object" | "Metadata";

/** Options of `toTable`. */
export interface TableOptions {
  /** Reference time for every age cell. */
  readonly now: Date;
  /** @default "Metadata" */
  readonly includeObject?: IncludeObjectPolicy;
  /** The list's metadata; for a single GET, pass `{resourceVersion}` of the object. */
  readonly listMeta?: TableListMeta;
  /** Omit the column definitions (`columnDefinitions: null`), as `TableOptions.NoHeaders`. @default false */
  readonly noHeaders?: boolean;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `meta.AsPartialObjectMetadata`: the object's full metadata under the Table's group/version. */
export function partialObjectMetadata(object: ApiObject): Record<string, unknown> {
  const metadata = isRecord(object["metadata"]) ? object["metadata"] : {};
  return { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata };
}

function rowObject(object: ApiObject, policy: IncludeObjectPolicy): unknown {
  switch (policy) {
    case "None":
      return null;
    case "Object":
      return object;
    case "Metadata":
      return partialObjectMetadata(object);
  }
}

function listMetaOf(meta: TableListMeta | undefined): TableListMeta {
  const out: { resourceVersion?: string; continue?: string; remainingItemCount?: number } = {};
  if (meta?.resourceVersion !== undefined && meta.resourceVersion !== "") {
    out.resourceVersion = meta.resourceVersion;
  }
  if (meta?.continue !== undefined && meta.continue !== "") out.continue = meta.continue;
  if (meta?.remainingItemCount !== undefined) out.remainingItemCount = meta.remainingItemCount;
  return out;
}

/** Builds the Table for a list (or a single object passed as a one-element list). */
export function toTable(
  printer: TablePrinter,
  objects: readonly ApiObject[],
  options: TableOptions,
): Table {
  const policy = options.includeObject ?? "Metadata";
  const rows = objects.map((object): TableRow => {
    const printed = printer.printRow(object, options.now);
    const included = rowObject(object, policy);
    return printed.conditions !== undefined && printed.conditions.length > 0
      ? { cells: printed.cells, conditions: printed.conditions, object: included }
      : { cells: printed.cells, object: included };
  });
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: listMetaOf(options.listMeta),
    columnDefinitions: options.noHeaders === true ? null : printer.columns,
    rows,
  };
}

/** Options of `watchEventTable`. */
export interface WatchTableOptions {
  readonly now: Date;
  /** @default "Metadata" */
  readonly includeObject?: IncludeObjectPolicy;
  /** True for the first event of the watch: only it carries `columnDefinitions`. */
  readonly first: boolean;
}

/**
 * The `object` of one watch event when the client asked for Tables: a one-row Table whose
 * `metadata.resourceVersion` is the object's, with `columnDefinitions` only on the first event
 * of the stream and `null` after (upstream sets `NoHeaders` once the header was sent).
 */
export function watchEventTable(
  printer: TablePrinter,
  object: ApiObject,
  options: WatchTableOptions,
): Table {
  const metadata = isRecord(object["metadata"]) ? object["metadata"] : {};
  const rv = metadata["resourceVersion"];
  const tableOptions: {
    now: Date;
    noHeaders: boolean;
    includeObject?: IncludeObjectPolicy;
    listMeta?: TableListMeta;
  } = { now: options.now, noHeaders: !options.first };
  if (options.includeObject !== undefined) tableOptions.includeObject = options.includeObject;
  if (typeof rv === "string") tableOptions.listMeta = { resourceVersion: rv };
  return toTable(printer, [object], tableOptions);
}
