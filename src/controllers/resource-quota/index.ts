// The resource quota controller.
export {
  newResourceQuotaController,
  type ResourceQuotaControllerDeps,
  type ResourceQuotaControllerOptions,
} from "./controller.ts";
export { computeQuotaStatus, type ObjectSource, type QuotaSync } from "./sync.ts";
