/** A CronTab CRD fixture (the upstream docs' example) for this folder's tests. */
import type { CustomResourceDefinition } from "./crd.ts";
import { defaultCustomResourceDefinition } from "./crd-defaults.ts";

export function makeCronTabCrd(
  edit: (crd: CustomResourceDefinition) => void = () => {},
): CustomResourceDefinition {
  const crd: CustomResourceDefinition = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "crontabs.stable.example.com" },
    spec: {
      group: "stable.example.com",
      scope: "Namespaced",
      names: {
        plural: "crontabs",
        singular: "crontab",
        kind: "CronTab",
        shortNames: ["ct"],
        categories: ["all"],
      },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          subresources: {
            status: {},
            scale: {
              specReplicasPath: ".spec.replicas",
              statusReplicasPath: ".status.replicas",
              labelSelectorPath: ".status.selector",
            },
          },
          additionalPrinterColumns: [{ name: "Spec", type: "string", jsonPath: ".spec.cronSpec" }],
          selectableFields: [{ jsonPath: ".spec.color" }],
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: {
                  type: "object",
                  required: ["cronSpec"],
                  properties: {
                    cronSpec: {
                      type: "string",
                      pattern: "^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$",
                    },
                    image: { type: "string", maxLength: 20 },
                    replicas: { type: "integer", minimum: 1, maximum: 10, default: 1 },
                    color: { type: "string", enum: ["red", "blue"] },
                    port: { "x-kubernetes-int-or-string": true },
                    tags: { type: "array", maxItems: 2, items: { type: "string" } },
                    limits: { type: "object", additionalProperties: { type: "integer" } },
                    nested: {
                      type: "object",
                      default: {},
                      properties: { level: { type: "string", default: "info" } },
                    },
                  },
                },
                status: {
                  type: "object",
                  properties: { replicas: { type: "integer" }, selector: { type: "string" } },
                },
              },
            },
          },
        },
      ],
    },
  };
  defaultCustomResourceDefinition(crd);
  edit(crd);
  return crd;
}
