import type { CustomResourceDefinition, KubeObject } from "../../api/index.ts";
import { rfc3339 } from "../../util/index.ts";
import type { Strategy, StrategyContext } from "../registry/generic/strategy.ts";
import { setCrdCondition } from "./conditions.ts";
import { calculateNamesAndConditions } from "./naming.ts";

/** The finalizer that keeps a CRD until its custom resources are gone. */
export const crdCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io";

export interface CrdStrategyDeps {
  /** Every stored CRD (the watch cache), to find names other CRDs of a group have accepted. */
  readonly crds: () => readonly CustomResourceDefinition[];
}

/**
 * CustomResourceDefinitions: upstream's registry strategy plus its naming and establishing
 * controllers, run synchronously so that a created CRD is NamesAccepted and Established at once.
 * The first DELETE adds the cleanup finalizer and a Terminating condition, as upstream's
 * `customresourcedefinition.REST.Delete` does; the CRD controller then removes the custom
 * resources and the finalizer.
 */
export function newCrdStrategy(deps: CrdStrategyDeps): Strategy {
  return {
    prepareForCreate(obj, context) {
      const crd = obj as unknown as CustomResourceDefinition;
      const storage = crd.spec?.versions?.find((v) => v.storage)?.name;
      crd.status = { storedVersions: storage === undefined ? [] : [storage] };
      acceptNames(crd, deps, context);
    },
    prepareForUpdate(obj, _old, context) {
      const crd = obj as unknown as CustomResourceDefinition;
      crd.status ??= {};
      const storage = crd.spec?.versions?.find((v) => v.storage)?.name;
      const stored = crd.status.storedVersions ?? [];
      if (storage !== undefined && !stored.includes(storage)) {
        crd.status.storedVersions = [...stored, storage];
      }
      if (JSON.stringify(crd.spec?.names) !== JSON.stringify(crd.status.acceptedNames)) {
        acceptNames(crd, deps, context);
      }
    },
    prepareForDelete(obj: KubeObject, context: StrategyContext) {
      const crd = obj as unknown as CustomResourceDefinition;
      const finalizers = crd.metadata.finalizers ?? [];
      if (!finalizers.includes(crdCleanupFinalizer)) {
        crd.metadata.finalizers = [...finalizers, crdCleanupFinalizer];
      }
      setCrdCondition(
        crd,
        {
          type: "Terminating",
          status: "True",
          reason: "InstanceDeletionPending",
          message:
            "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
        },
        rfc3339(context.clock.now()),
      );
    },
  };
}

function acceptNames(
  crd: CustomResourceDefinition,
  deps: CrdStrategyDeps,
  context: StrategyContext,
): void {
  if (crd.spec?.names === undefined) return;
  const result = calculateNamesAndConditions(crd, deps.crds());
  const now = rfc3339(context.clock.now());
  crd.status ??= {};
  crd.status.acceptedNames = result.acceptedNames;
  setCrdCondition(crd, result.namesAccepted, now);
  setCrdCondition(crd, result.established, now);
  // Upstream's status order: conditions, acceptedNames, storedVersions.
  const { conditions, acceptedNames, storedVersions, ...rest } = crd.status;
  crd.status = {
    ...(conditions === undefined ? {} : { conditions }),
    ...(acceptedNames === undefined ? {} : { acceptedNames }),
    ...(storedVersions === undefined ? {} : { storedVersions }),
    ...rest,
  };
}
