import type { JsonObject } from "../util/index.ts";
import type { TableConverter } from "./handlers/scope.ts";
import { builtInPrinters, defaultPrinter, type TablePrinter, toTable } from "./printers/index.ts";
import type { Store } from "./registry/generic/store.ts";

/** Table conversion for every served kind: built-in printers, CRD columns, or NAME/CREATED AT. */
export class Tables implements TableConverter {
  readonly #builtIn = builtInPrinters();
  readonly #custom = new Map<string, TablePrinter>();

  /** Sets the printer of a custom resource (`<group>/<resource>`), from its CRD's columns. */
  setCustom(group: string, resource: string, printer: TablePrinter | undefined): void {
    if (printer === undefined) this.#custom.delete(`${group}/${resource}`);
    else this.#custom.set(`${group}/${resource}`, printer);
  }

  convert(
    store: Store,
    objects: readonly JsonObject[],
    options: Parameters<TableConverter["convert"]>[2],
  ): JsonObject {
    const d = store.entry.definition;
    const key = `${d.group}/${d.resource}`;
    const printer = this.#custom.get(key) ?? this.#builtIn.get(key) ?? defaultPrinter;
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
