import { ApiError } from "../../api/index.ts";
import type { Strategy } from "../registry/generic/strategy.ts";

/**
 * Custom resources: no strategic merge patch, DELETE returns the object, and while the CRD is
 * terminating no new ones may be created (upstream's crdHandler answers 405 with
 * `create not allowed while custom resource definition is terminating`).
 */
export function customResourceStrategy(crd: {
  readonly group: string;
  readonly plural: string;
  readonly terminating: boolean;
}): Strategy {
  if (!crd.terminating) return { customResource: true, returnDeletedObject: true };
  return {
    customResource: true,
    returnDeletedObject: true,
    prepareForCreate() {
      throw new ApiError(
        405,
        "MethodNotAllowed",
        "create not allowed while custom resource definition is terminating",
        { group: crd.group, kind: crd.plural },
      );
    },
  };
}
