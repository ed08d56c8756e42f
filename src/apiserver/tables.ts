import type { JsonObject } from "../util/index.ts";
import type { TableConverter } from "./handlers/scope.ts";
import { builtInPrinters, defaultPrinter, type TablePrinter, toTable } from "./printers/index.ts";
import type { Store } from "./registry/generic/store.ts";

/** Table conversion for every served kind: built-in printers, CRD columns, or NAME/CREATED AT. */
export class Tables implements TableConverter {
  readonly #builtIn = builtInPrinters();
  readonly #custom = new Map<string, TablePrinter>();

  /**
   * Sets (or with `undefined` removes) the printer of a custom resource version, from its CRD's
   * `additionalPrinterColumns`. Versions of one CRD may print different columns.
   */
  setCustom(
    group: string,
    version: string,
    resource: string,
    printer: TablePrinter | undefined,
  ): void {
    const key = customKey(group, version, resource);
    if (printer === undefined) this.#custom.delete(key);
    else this.#custom.set(key, printer);
  }

  /** The printer a served resource's Tables use. */
  printerOf(group: string, version: string, resource: string): TablePrinter {
    return (
      this.#custom.get(customKey(group, version, resource)) ??
      this.#builtIn.get(`${group}/${resource}`) ??
      defaultPrinter
    );
  }

  convert(
    store: Store,
    objects: readonly JsonObject[],
    options: Parameters<TableConverter["convert"]>[2],
  ): JsonObject {
    const d = store.entry.definition;
    const printer = this.printerOf(d.group, d.version, d.resource);
    const includeObject =
      options.includeObject === "None" || options.includeObject === "Object"
        ? options.includeObject
        : "Metadata";
    return toTable(printer, objects, {
      now: options.now,
      includeObject,
      noHeaders: !options.withColumns,
      ...(options.listMeta === undefined ? {} : { listMeta: options.listMeta }),
    }) as unknown as JsonObject;
  }
}

function customKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}
