/** The `apiextensions.k8s.io/v1` KindDefinitions. */
import { externalDefinitions } from "../../apps/v1/core-adapter.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import type { CustomResourceDefinition } from "./crd.ts";
import { defaultCustomResourceDefinition } from "./crd-defaults.ts";
import { apiextensionsName, apiextensionsV1Definitions } from "./crd-schema.ts";
import {
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionUpdate,
} from "./crd-validation.ts";

export const customResourceDefinitionKind: KindDefinition<CustomResourceDefinition> = {
  group: "apiextensions.k8s.io",
  version: "v1",
  kind: "CustomResourceDefinition",
  listKind: "CustomResourceDefinitionList",
  resource: "customresourcedefinitions",
  singular: "customresourcedefinition",
  namespaced: false,
  shortNames: ["crd", "crds"],
  categories: ["api-extensions"],
  verbs: allVerbs,
  schema: {
    schema: apiextensionsV1Definitions[apiextensionsName("CustomResourceDefinition")] ?? {},
    definitions: { ...externalDefinitions(), ...apiextensionsV1Definitions },
  },
  tracksGeneration: true,
  subresources: { status: true },
  applyDefaults: defaultCustomResourceDefinition,
  validate: validateCustomResourceDefinition,
  validateUpdate: validateCustomResourceDefinitionUpdate,
};

/** Every served `apiextensions.k8s.io/v1` kind. */
export const apiextensionsV1Kinds = [customResourceDefinitionKind] as const;
