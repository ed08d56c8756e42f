/** The Widget CRD fixture that API server, controller and kubectl tests share. */
import type { CustomResourceDefinition } from "../../api/index.ts";

/** A namespaced Widget CRD (`widgets.example.com`) with status and scale subresources. */
export function makeWidgetCrd(
  edit: (crd: CustomResourceDefinition) => void = () => undefined,
): CustomResourceDefinition {
  const crd: CustomResourceDefinition = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget", shortNames: ["wd"] },
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
          additionalPrinterColumns: [
            { name: "Size", type: "string", jsonPath: ".spec.size" },
            { name: "Replicas", type: "integer", jsonPath: ".spec.replicas" },
            { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
            { name: "Note", type: "string", jsonPath: ".spec.note", priority: 1 },
          ],
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: {
                  type: "object",
                  required: ["size"],
                  properties: {
                    size: { type: "string", enum: ["small", "large"] },
                    replicas: { type: "integer", minimum: 0, maximum: 10, default: 1 },
                    note: { type: "string", maxLength: 10 },
                    extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
                  },
                },
                status: {
                  type: "object",
                  properties: {
                    replicas: { type: "integer" },
                    selector: { type: "string" },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
  edit(crd);
  return crd;
}
