/**
 * The quota reads and writes the ResourceQuota admission plugin makes, over this API server's
 * watch cache and resourcequotas store (upstream's plugin uses a loopback client as
 * `system:apiserver`; here the write goes straight through the store's status path, with the
 * same resourceVersion precondition).
 */
import { internalError, type ResourceQuota } from "../../api/index.ts";
import { deepCopy } from "../../util/index.ts";
import type { ObjectReader } from "../admission/index.ts";
import type { QuotaAccess } from "../admission/plugins/resource-quota.ts";
import type { Store } from "./generic/store.ts";

const segment = "resourcequotas";

export function newResourceQuotaAccess(deps: {
  readonly reader: ObjectReader;
  /** The resourcequotas store; looked up on use, as the registry is filled after admission is built. */
  readonly store: () => Store | undefined;
}): QuotaAccess {
  const list = (namespace: string): ResourceQuota[] =>
    deps.reader.list(segment, namespace) as unknown as ResourceQuota[];
  return {
    list,
    async listFresh(namespace) {
      // `getFresh` waits for the cache to catch up with storage; the name does not matter.
      await deps.reader.getFresh(segment, namespace, "");
      return list(namespace);
    },
    async updateStatus(quota) {
      const store = deps.store();
      const name = quota.metadata.name ?? "";
      if (store === undefined) throw internalError("resourcequotas are not served");
      const written = await store.update(
        quota.metadata.namespace ?? "",
        name,
        (current) => ({
          ...current,
          metadata: { ...current.metadata, resourceVersion: quota.metadata.resourceVersion ?? "" },
          status: deepCopy(quota.status ?? {}),
        }),
        {
          user: {
            username: "system:apiserver",
            groups: ["system:authenticated", "system:masters"],
          },
          dryRun: false,
          fieldManager: "kube-apiserver",
          warnings: [],
          subresource: "status",
        },
      );
      return written as ResourceQuota;
    },
  };
}
