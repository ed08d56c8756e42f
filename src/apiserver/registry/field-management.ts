import type { JsonObject } from "../../util/index.ts";
import { carryDecodedSets, type FieldManager } from "../fieldmanager/index.ts";
import type { FieldManagement } from "./generic/store.ts";

/** The registry's managedFields tracking over the field manager (one per API server). */
export function newFieldManagement(fieldManager: FieldManager): FieldManagement {
  return {
    update: (input) =>
      fieldManager.update({
        live: input.live as unknown as JsonObject | undefined,
        updated: input.updated as unknown as JsonObject,
        manager: input.manager,
        apiVersion: input.apiVersion,
        time: input.time,
        schema: input.schema,
        ...(input.subresource === "" ? {} : { subresource: input.subresource }),
      }),
    written: (written, stored, previous) =>
      carryDecodedSets(
        written.metadata.managedFields,
        (stored["metadata"] as { managedFields?: unknown } | undefined)?.managedFields,
        previous?.metadata.managedFields,
      ),
  };
}
