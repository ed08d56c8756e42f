// The pv-protection controller.
export {
  newPvProtectionController,
  type PvProtectionControllerDeps,
  type PvProtectionControllerOptions,
  pvProtectionFinalizer,
} from "./controller.ts";
