// The pvc-protection controller.
export {
  claimNamesOf,
  newPvcProtectionController,
  type PvcProtectionControllerDeps,
  type PvcProtectionControllerOptions,
  podUsesClaim,
  pvcProtectionFinalizer,
} from "./controller.ts";
