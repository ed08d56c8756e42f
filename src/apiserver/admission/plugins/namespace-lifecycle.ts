import { ApiError, forbidden, notFound } from "../../../api/index.ts";
import { type AdmissionPlugin, admit, type ObjectReader } from "../admission.ts";

/** Namespaces that can never be deleted. */
const immortal = new Set(["default", "kube-system", "kube-public"]);

/**
 * NamespaceLifecycle: new objects need an existing, active namespace; system namespaces cannot
 * be deleted. Messages as upstream's plugin.
 */
export function newNamespaceLifecycle(reader: ObjectReader): AdmissionPlugin {
  return {
    name: "NamespaceLifecycle",
    handles: (a) =>
      a.operation === "CREATE" ||
      (a.operation === "DELETE" && a.resource === "namespaces" && a.group === ""),
    async validate(a) {
      if (a.operation === "DELETE") {
        if (immortal.has(a.name)) {
          return {
            allowed: false,
            error: forbidden(
              { group: "", resource: "namespaces" },
              a.name,
              "this namespace may not be deleted",
            ),
          };
        }
        return admit;
      }
      if (a.namespace === "" || (a.group === "" && a.resource === "namespaces")) return admit;
      // As upstream: a namespace the cache has not seen yet is looked up live before refusing.
      const ns =
        reader.get("namespaces", "", a.namespace) ??
        (await reader.getFresh("namespaces", "", a.namespace));
      if (ns === undefined) {
        return {
          allowed: false,
          error: notFound({ group: "", resource: "namespaces" }, a.namespace),
        };
      }
      const phase = (ns["status"] as { phase?: string } | undefined)?.phase;
      if (
        phase === "Terminating" ||
        (ns["metadata"] as { deletionTimestamp?: string }).deletionTimestamp !== undefined
      ) {
        const error = forbidden(
          { group: a.group, resource: a.resource },
          a.name,
          `unable to create new content in namespace ${a.namespace} because it is being terminated`,
        );
        return {
          allowed: false,
          error: new ApiError(403, "Forbidden", error.message, {
            ...error.details,
            causes: [
              {
                reason: "NamespaceTerminating",
                message: `namespace ${a.namespace} is being terminated`,
                field: "metadata.namespace",
              },
            ],
          }),
        };
      }
      return admit;
    },
  };
}
