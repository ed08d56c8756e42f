// The public surface of apiextensions.k8s.io/v1.
export {
  type CustomResourceColumnDefinition,
  type CustomResourceConversion,
  type CustomResourceDefinition,
  type CustomResourceDefinitionCondition,
  type CustomResourceDefinitionNames,
  type CustomResourceDefinitionSpec,
  type CustomResourceDefinitionStatus,
  type CustomResourceDefinitionVersion,
  type CustomResourceSubresourceScale,
  type CustomResourceSubresources,
  type CustomResourceValidation,
  isCrdConditionTrue,
  type JSONSchemaProps,
  type ResourceScope,
  type SelectableField,
  storageVersionOf,
  type WebhookClientConfig,
} from "./crd.ts";
export {
  defaultCustomResourceDefinition,
  prepareCustomResourceDefinitionForCreate,
} from "./crd-defaults.ts";
export { apiextensionsName, apiextensionsV1Definitions } from "./crd-schema.ts";
export {
  validateCrdSpec,
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionUpdate,
  validateNames,
} from "./crd-validation.ts";
export { applySchemaDefaults } from "./custom-resource-defaults.ts";
export { kindDefinitionForCrd, readJsonPath } from "./custom-resource-kind.ts";
export { validateUpdateAgainstSchema } from "./custom-resource-ratcheting.ts";
export { jsonTypeOf, validateAgainstSchema } from "./custom-resource-validation.ts";
export { apiextensionsV1Kinds, customResourceDefinitionKind } from "./kinds.ts";
export { isStructuralSchema } from "./structural.ts";
