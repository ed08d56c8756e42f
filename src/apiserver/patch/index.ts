export { applyJsonPatch } from "./json-patch.ts";
export { applyMergePatch } from "./merge-patch.ts";
export { isPatchType, type PatchType, patchTypes } from "./patch-types.ts";
export { applyStrategicMergePatch } from "./strategic-merge-patch.ts";
