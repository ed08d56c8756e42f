// The public surface of apiserver/fieldmanager: server-side apply and managedFields tracking.
export {
  type Conflict,
  conflictError,
  conflictMessage,
  printManager,
} from "./conflict.ts";
export { FieldSet } from "./field-set.ts";
export {
  buildLastApplied,
  lastAppliedAnnotation,
} from "./last-applied.ts";
export {
  type ApplyConfigurationInput,
  type ApplyResult,
  applyConfiguration,
  beforeFirstApplyManager,
  defaultIgnoredFields,
  type FieldManager,
  newFieldManager,
  strippedFields,
  type UpdateManagedFieldsInput,
  updateManagedFields,
} from "./managed-fields.ts";
export {
  carryDecodedSets,
  decodeManagedFields,
  encodeManagedFields,
  type ManagerEntry,
  type ManagerIdentity,
  type Managers,
  managerIdentifier,
  maxUpdateManagers,
} from "./managers.ts";
export {
  field,
  formatPath,
  index,
  type KeyField,
  key,
  type Path,
  type PathElement,
  value,
} from "./path-element.ts";
export { fieldSetOf, type ReadOptions, TypedValueError } from "./typed.ts";
export { objectMetaSchema } from "./types.ts";
