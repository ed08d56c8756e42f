/** Named schema definitions of `apiextensions.k8s.io/v1` CustomResourceDefinition. */

import { kindSchema, listSchema } from "../../apps/v1/schema-helpers.ts";
import {
  anyValue,
  atomicList,
  bool,
  int32,
  int64,
  mapList,
  mapOf,
  num,
  obj,
  str,
  time,
} from "../../schema/builders.ts";
import { type Definitions, ref } from "../../schema/schema.ts";

/** `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.<name>`. */
export function apiextensionsName(name: string): string {
  return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.${name}`;
}

const n = apiextensionsName;
const gv = { group: "apiextensions.k8s.io", version: "v1" };
const props = () => ref(n("JSONSchemaProps"));

export const apiextensionsV1Definitions: Definitions = {
  [n("CustomResourceDefinition")]: kindSchema(
    { ...gv, kind: "CustomResourceDefinition" },
    "CustomResourceDefinition represents a resource that should be exposed on the API server. Its name MUST be in the format <.spec.name>.<.spec.group>.",
    {
      spec: ref(
        n("CustomResourceDefinitionSpec"),
        "spec describes how the user wants the resources to appear",
      ),
      status: ref(
        n("CustomResourceDefinitionStatus"),
        "status indicates the actual state of the CustomResourceDefinition",
      ),
    },
    ["spec"],
  ),
  [n("CustomResourceDefinitionList")]: listSchema(
    { ...gv, kind: "CustomResourceDefinitionList" },
    n("CustomResourceDefinition"),
  ),
  [n("CustomResourceDefinitionSpec")]: obj(
    {
      group: str(
        "group is the API group of the defined custom resource. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`).",
      ),
      names: ref(
        n("CustomResourceDefinitionNames"),
        "names specify the resource and kind names for the custom resource.",
      ),
      scope: str(
        "scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed values are `Cluster` and `Namespaced`.",
      ),
      versions: atomicList(
        ref(n("CustomResourceDefinitionVersion")),
        "versions is the list of all API versions of the defined custom resource. Exactly one version must be marked as the storage version.",
      ),
      conversion: ref(
        n("CustomResourceConversion"),
        "conversion defines conversion settings for the CRD.",
      ),
      preserveUnknownFields: bool(
        "preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage. Must be false in v1.",
      ),
    },
    {
      description:
        "CustomResourceDefinitionSpec describes how a user wants their resource to appear",
      required: ["group", "names", "scope", "versions"],
    },
  ),
  [n("CustomResourceDefinitionNames")]: obj(
    {
      plural: str("plural is the plural name of the resource to serve. Must be all lowercase."),
      singular: str(
        "singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.",
      ),
      shortNames: atomicList(
        str(),
        "shortNames are short names for the resource, exposed in API discovery documents.",
      ),
      kind: str(
        "kind is the serialized kind of the resource. It is normally CamelCase and singular.",
      ),
      listKind: str(
        'listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".',
      ),
      categories: atomicList(
        str(),
        "categories is a list of grouped resources this custom resource belongs to (e.g. 'all').",
      ),
    },
    {
      description:
        "CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition",
      required: ["plural", "kind"],
    },
  ),
  [n("CustomResourceDefinitionVersion")]: obj(
    {
      name: str("name is the version name, e.g. “v1”, “v2beta1”, etc."),
      served: bool(
        "served is a flag enabling/disabling this version from being served via REST APIs",
      ),
      storage: bool(
        "storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.",
      ),
      deprecated: bool(
        "deprecated indicates this version of the custom resource API is deprecated.",
      ),
      deprecationWarning: str(
        "deprecationWarning overrides the default warning returned to API clients. May only be set when `deprecated` is true.",
      ),
      schema: ref(
        n("CustomResourceValidation"),
        "schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.",
      ),
      subresources: ref(
        n("CustomResourceSubresources"),
        "subresources specify what subresources this version of the defined custom resource have.",
      ),
      additionalPrinterColumns: atomicList(
        ref(n("CustomResourceColumnDefinition")),
        "additionalPrinterColumns specifies additional columns returned in Table output. If no columns are specified, a single column displaying the age of the custom resource is used.",
      ),
      selectableFields: atomicList(
        obj(
          {
            jsonPath: str(
              "jsonPath is a simple JSON path which is evaluated against each custom resource to produce a field selector value.",
            ),
          },
          { required: ["jsonPath"] },
        ),
        "selectableFields specifies paths to fields that may be used as field selectors.",
      ),
    },
    {
      description: "CustomResourceDefinitionVersion describes a version for CRD.",
      required: ["name", "served", "storage"],
    },
  ),
  [n("CustomResourceValidation")]: obj(
    {
      openAPIV3Schema: ref(
        n("JSONSchemaProps"),
        "openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.",
      ),
    },
    {
      description: "CustomResourceValidation is a list of validation methods for CustomResources.",
    },
  ),
  [n("CustomResourceSubresources")]: obj(
    {
      status: {
        type: "object",
        "x-kubernetes-preserve-unknown-fields": true,
        description: "status indicates the custom resource should serve a `/status` subresource.",
      },
      scale: obj(
        {
          specReplicasPath: str(
            "specReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `spec.replicas`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.spec`.",
          ),
          statusReplicasPath: str(
            "statusReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `status.replicas`. Must be a JSON Path under `.status`.",
          ),
          labelSelectorPath: str(
            "labelSelectorPath defines the JSON path inside of a custom resource that corresponds to Scale `status.selector`. Must be a JSON Path under `.status` or `.spec`.",
          ),
        },
        {
          description:
            "scale indicates the custom resource should serve a `/scale` subresource that returns an `autoscaling/v1` Scale object.",
          required: ["specReplicasPath", "statusReplicasPath"],
        },
      ),
    },
    {
      description:
        "CustomResourceSubresources defines the status and scale subresources for CustomResources.",
    },
  ),
  [n("CustomResourceColumnDefinition")]: obj(
    {
      name: str("name is a human readable name for the column."),
      type: str(
        "type is an OpenAPI type definition for this column. See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for details.",
      ),
      format: str(
        "format is an optional OpenAPI type definition for this column. The 'name' format is applied to the primary identifier column to assist in clients identifying column is the resource name.",
      ),
      description: str("description is a human readable description of this column."),
      priority: int32(
        "priority is an integer defining the relative importance of this column compared to others. Lower numbers are considered higher priority.",
      ),
      jsonPath: str(
        "jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.",
      ),
    },
    {
      description: "CustomResourceColumnDefinition specifies a column for server side printing.",
      required: ["name", "type", "jsonPath"],
    },
  ),
  [n("CustomResourceConversion")]: obj(
    {
      strategy: str(
        'strategy specifies how custom resources are converted between versions. Allowed values are: - `"None"`: The converter only change the apiVersion and would not touch any other field in the custom resource. - `"Webhook"`: API Server will call to an external webhook to do the conversion.',
      ),
      webhook: obj(
        {
          clientConfig: obj(
            {
              url: str(
                "url gives the location of the webhook, in standard URL form (`scheme://host:port/path`).",
              ),
              service: obj(
                {
                  namespace: str("namespace is the namespace of the service."),
                  name: str("name is the name of the service."),
                  path: str("path is an optional URL path at which the webhook will be contacted."),
                  port: int32(
                    "port is an optional service port at which the webhook will be contacted. Defaults to 443 for backward compatibility.",
                  ),
                },
                { required: ["namespace", "name"] },
              ),
              caBundle: str(
                "caBundle is a PEM encoded CA bundle which will be used to validate the webhook's server certificate.",
                { format: "byte" },
              ),
            },
            {
              description:
                "clientConfig is the instructions for how to call the webhook if strategy is `Webhook`.",
            },
          ),
          conversionReviewVersions: atomicList(
            str(),
            "conversionReviewVersions is an ordered list of preferred `ConversionReview` versions the Webhook expects.",
          ),
        },
        {
          description:
            'webhook describes how to call the conversion webhook. Required when `strategy` is set to `"Webhook"`.',
          required: ["conversionReviewVersions"],
        },
      ),
    },
    {
      description: "CustomResourceConversion describes how to convert different versions of a CR.",
      required: ["strategy"],
    },
  ),
  [n("CustomResourceDefinitionStatus")]: obj(
    {
      conditions: mapList(ref(n("CustomResourceDefinitionCondition")), "type", {
        description:
          "conditions indicate state for particular aspects of a CustomResourceDefinition",
      }),
      acceptedNames: ref(
        n("CustomResourceDefinitionNames"),
        "acceptedNames are the names that are actually being used to serve discovery.",
      ),
      storedVersions: atomicList(
        str(),
        "storedVersions lists all versions of CustomResources that were ever persisted.",
      ),
    },
    {
      description:
        "CustomResourceDefinitionStatus indicates the state of the CustomResourceDefinition",
    },
  ),
  [n("CustomResourceDefinitionCondition")]: obj(
    {
      type: str(
        "type is the type of the condition. Types include Established, NamesAccepted and Terminating.",
      ),
      status: str("status is the status of the condition. Can be True, False, Unknown."),
      lastTransitionTime: time(
        "lastTransitionTime last time the condition transitioned from one status to another.",
      ),
      reason: str(
        "reason is a unique, one-word, CamelCase reason for the condition's last transition.",
      ),
      message: str("message is a human-readable message indicating details about last transition."),
    },
    {
      description:
        "CustomResourceDefinitionCondition contains details for the current condition of this pod.",
      required: ["type", "status"],
    },
  ),
  [n("JSONSchemaProps")]: obj(
    {
      id: str(),
      $schema: str(),
      $ref: str(),
      description: str(),
      type: str(),
      format: str("format is an OpenAPI v3 format string."),
      title: str(),
      default: anyValue("default is a default value for undefined object fields."),
      maximum: num(),
      exclusiveMaximum: bool(),
      minimum: num(),
      exclusiveMinimum: bool(),
      maxLength: int64(),
      minLength: int64(),
      pattern: str(),
      maxItems: int64(),
      minItems: int64(),
      uniqueItems: bool(),
      multipleOf: num(),
      enum: atomicList(anyValue()),
      maxProperties: int64(),
      minProperties: int64(),
      required: atomicList(str()),
      items: anyValue("JSONSchemaPropsOrArray: a schema or an array of schemas."),
      allOf: atomicList(props()),
      oneOf: atomicList(props()),
      anyOf: atomicList(props()),
      not: props(),
      properties: mapOf(props()),
      additionalProperties: anyValue("JSONSchemaPropsOrBool: a schema or a boolean."),
      patternProperties: mapOf(props()),
      dependencies: mapOf(anyValue()),
      additionalItems: anyValue(),
      definitions: mapOf(props()),
      externalDocs: obj({ description: str(), url: str() }),
      example: anyValue(),
      nullable: bool(),
      "x-kubernetes-preserve-unknown-fields": bool(
        "x-kubernetes-preserve-unknown-fields stops the API server decoding step from pruning fields which are not specified in the validation schema.",
      ),
      "x-kubernetes-embedded-resource": bool(
        "x-kubernetes-embedded-resource defines that the value is an embedded Kubernetes runtime.Object, with TypeMeta and ObjectMeta.",
      ),
      "x-kubernetes-int-or-string": bool(
        "x-kubernetes-int-or-string specifies that this value is either an integer or a string.",
      ),
      "x-kubernetes-list-map-keys": atomicList(
        str(),
        "x-kubernetes-list-map-keys annotates an array with the x-kubernetes-list-type `map` by specifying the keys used as the index of the map.",
      ),
      "x-kubernetes-list-type": str(
        "x-kubernetes-list-type annotates an array to further describe its topology: atomic, set or map.",
      ),
      "x-kubernetes-map-type": str(
        "x-kubernetes-map-type annotates an object to further describe its topology: granular or atomic.",
      ),
      "x-kubernetes-validations": atomicList(
        obj(
          {
            rule: str(),
            message: str(),
            messageExpression: str(),
            reason: str(),
            fieldPath: str(),
            optionalOldSelf: bool(),
          },
          { required: ["rule"] },
        ),
        "x-kubernetes-validations describes a list of validation rules written in the CEL expression language.",
      ),
    },
    {
      description:
        "JSONSchemaProps is a JSON-Schema following Specification Draft 4 (http://json-schema.org/).",
    },
  ),
};
