import { refName, type Schema } from "../../api/index.ts";
import { ProtoWriter } from "../../storage/index.ts";
import { serverVersion } from "../discovery/discovery.ts";
import { parseAccept } from "../http/accept.ts";
import type { ResourceRegistry } from "../registry/resource-registry.ts";
import { kindSchemas, sha512Hex } from "./openapi.ts";

/**
 * `/openapi/v2`: one Swagger 2.0 document with the schema of every kind served, as
 * kube-apiserver publishes it (kube-openapi's handler), in JSON or as gnostic's
 * `openapi.v2.Document` protobuf. kubectl 1.27 and 1.28 load the protobuf before `create -f`,
 * `apply -f` and `replace -f` (and fail when it is missing), take strategic-merge-patch keys
 * from it for `apply`, and read it for `kubectl explain`.
 *
 * The document carries the definitions only: the paths are in each group/version's OpenAPI v3
 * document, which is where kubectl 1.27 and later look for the `fieldValidation` parameter.
 */
export interface SwaggerDocument {
  readonly swagger: "2.0";
  readonly info: { readonly title: string; readonly version: string };
  readonly paths: Record<string, never>;
  readonly definitions: Record<string, SwaggerSchema>;
}

/** A Swagger 2.0 schema: the v3 subset gantry's schemas use, minus what 2.0 does not have. */
export type SwaggerSchema = Omit<Schema, "nullable" | "anyOf" | "oneOf" | "not">;

/** The media types kube-openapi's handler serves the document as, JSON first. */
export const swaggerMediaTypes = {
  json: "application/json",
  protobuf: "application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
  /** What kubectl asks for; answered with the `protobuf` Content-Type, as upstream does. */
  protobufDeprecated: "application/com.github.proto-openapi.spec.v2@v1.0+protobuf",
} as const;

/** The Swagger 2.0 document of every kind in `registry`, definitions sorted by name. */
export function swaggerDocument(registry: ResourceRegistry): SwaggerDocument {
  const schemas = kindSchemas(registry.stores());
  const definitions: Record<string, SwaggerSchema> = {};
  for (const name of Object.keys(schemas).sort()) {
    definitions[name] = toSwaggerSchema(schemas[name] as Schema);
  }
  return {
    swagger: "2.0",
    info: { title: "Kubernetes", version: serverVersion.gitVersion },
    paths: {},
    definitions,
  };
}

/**
 * `schema` as Swagger 2.0 writes it, the way kube-apiserver turns a CRD's structural schema into
 * its v2 definition: references point into `#/definitions/`; `nullable`, `anyOf`, `oneOf` and
 * `not`, which 2.0 lacks, are left out; an int-or-string value loses its `type` (it may be
 * either); a subtree that keeps unknown fields loses `type`, `properties`, `items` and
 * `additionalProperties`, so that a client validating against it accepts whatever it holds.
 */
function toSwaggerSchema(schema: Schema): SwaggerSchema {
  const { nullable, anyOf, oneOf, not, ...kept } = schema;
  const out: SwaggerSchema = { ...kept };
  const name = refName(schema);
  if (name !== undefined) out.$ref = `#/definitions/${name}`;
  if (out["x-kubernetes-int-or-string"] === true) {
    delete out.type;
    out.format ??= "int-or-string";
  }
  if (out["x-kubernetes-preserve-unknown-fields"] === true) {
    delete out.type;
    delete out.properties;
    delete out.items;
    delete out.additionalProperties;
  }
  if (out.properties !== undefined) {
    const properties: Record<string, SwaggerSchema> = {};
    for (const name of Object.keys(out.properties).sort()) {
      properties[name] = toSwaggerSchema(out.properties[name] as Schema);
    }
    out.properties = properties;
  }
  if (out.items !== undefined) out.items = toSwaggerSchema(out.items);
  if (typeof out.additionalProperties === "object") {
    out.additionalProperties = toSwaggerSchema(out.additionalProperties);
  }
  if (out.allOf !== undefined) out.allOf = out.allOf.map(toSwaggerSchema);
  return out;
}

/**
 * The document as gnostic's `openapi.v2.Document` in protobuf (field numbers from gnostic's
 * OpenAPIv2.proto), what kube-openapi's handler serves for the protobuf media types. Values of
 * `default`, `enum` and vendor extensions are `Any` messages carrying YAML text, as gnostic
 * stores them; JSON is written there, which every YAML parser reads.
 */
export function encodeSwaggerDocument(document: SwaggerDocument): Buffer {
  const w = new ProtoWriter(0, 1 << 20);
  w.string(1, document.swagger);
  w.message(2, (info) => {
    info.string(1, document.info.title);
    info.string(2, document.info.version);
  });
  w.message(9, (definitions) => {
    for (const [name, schema] of Object.entries(document.definitions)) {
      definitions.message(1, (named) => writeNamedSchema(named, name, schema));
    }
  });
  return Buffer.from(w.finish());
}

function writeNamedSchema(w: ProtoWriter, name: string, schema: SwaggerSchema): void {
  w.string(1, name);
  w.message(2, (value) => writeSchema(value, schema));
}

/** gnostic's `Schema` message. */
function writeSchema(w: ProtoWriter, s: SwaggerSchema): void {
  w.string(1, s.$ref);
  w.string(2, s.format);
  w.string(4, s.description);
  if (s.default !== undefined) w.message(5, (any) => writeYamlAny(any, s.default));
  w.double(6, s.multipleOf);
  w.double(7, s.maximum);
  w.bool(8, s.exclusiveMaximum);
  w.double(9, s.minimum);
  w.bool(10, s.exclusiveMinimum);
  w.int(11, s.maxLength);
  w.int(12, s.minLength);
  w.string(13, s.pattern);
  w.int(14, s.maxItems);
  w.int(15, s.minItems);
  w.bool(16, s.uniqueItems);
  w.int(17, s.maxProperties);
  w.int(18, s.minProperties);
  for (const field of s.required ?? []) w.string(19, field);
  for (const value of s.enum ?? []) w.message(20, (any) => writeYamlAny(any, value));
  const additional = s.additionalProperties;
  if (typeof additional === "object") {
    w.message(21, (item) => item.message(1, (schema) => writeSchema(schema, additional)));
  } else if (additional !== undefined) {
    // A oneof member: `false` is written too.
    w.message(21, (item) => item.intAlways(2, additional ? 1 : 0));
  }
  if (s.type !== undefined) {
    const type = s.type;
    w.message(22, (item) => item.string(1, type));
  }
  const items = s.items;
  if (items !== undefined) w.message(23, (item) => item.message(1, (x) => writeSchema(x, items)));
  for (const part of s.allOf ?? []) w.message(24, (x) => writeSchema(x, part));
  const properties = s.properties;
  if (properties !== undefined) {
    w.message(25, (props) => {
      for (const [name, property] of Object.entries(properties)) {
        props.message(1, (named) => writeNamedSchema(named, name, property));
      }
    });
  }
  for (const [key, value] of Object.entries(s)) {
    if (!key.startsWith("x-") || value === undefined) continue;
    w.message(31, (named) => {
      named.string(1, key);
      named.message(2, (any) => writeYamlAny(any, value));
    });
  }
}

/** gnostic's `Any` with its `yaml` field (2) set to `value`'s text. */
function writeYamlAny(w: ProtoWriter, value: unknown): void {
  w.string(2, JSON.stringify(value));
}

/** The document in the forms it is served in, with its ETag. */
export interface RenderedSwagger {
  readonly json: string;
  readonly protobuf: Buffer;
  /** Upstream's: the upper-case hex SHA-512 of the JSON. */
  readonly etag: string;
}

/** Renders the document once per registry generation (a CRD added or changed), on first use. */
export class SwaggerDocuments {
  readonly #registry: ResourceRegistry;
  #generation = -1;
  #rendered: RenderedSwagger | undefined;

  constructor(registry: ResourceRegistry) {
    this.#registry = registry;
  }

  current(): RenderedSwagger {
    if (this.#rendered === undefined || this.#generation !== this.#registry.generation) {
      const document = swaggerDocument(this.#registry);
      const json = JSON.stringify(document);
      this.#rendered = {
        json,
        protobuf: encodeSwaggerDocument(document),
        etag: sha512Hex(json),
      };
      this.#generation = this.#registry.generation;
    }
    return this.#rendered;
  }
}

/**
 * Which form an `Accept` header gets, as kube-openapi's handler chooses: the media ranges by
 * quality (then the more specific first), and for each, JSON, then the two protobuf types;
 * no header means any. `undefined` is upstream's 406.
 */
export function negotiateSwagger(
  accept: string | undefined,
): { readonly form: "json" | "protobuf"; readonly contentType: string } | undefined {
  const ranges = parseAccept(accept === undefined || accept.trim() === "" ? "*/*" : accept)
    .map((range, index) => {
      const [type = "", subtype = ""] = range.type.split("/");
      const q = Number(range.params["q"] ?? "1");
      const specific = (type === "*" ? 0 : 1) + (subtype === "*" ? 0 : 1);
      return { type, subtype, q: Number.isNaN(q) ? 0 : q, specific, index };
    })
    .filter((range) => range.q > 0)
    .sort((a, b) => b.q - a.q || b.specific - a.specific || a.index - b.index);
  const offered = [
    { subtype: "json", form: "json", contentType: swaggerMediaTypes.json },
    {
      subtype: swaggerMediaTypes.protobufDeprecated.slice("application/".length),
      form: "protobuf",
      contentType: swaggerMediaTypes.protobuf,
    },
    {
      subtype: swaggerMediaTypes.protobuf.slice("application/".length),
      form: "protobuf",
      contentType: swaggerMediaTypes.protobuf,
    },
  ] as const;
  for (const range of ranges) {
    if (range.type !== "application" && range.type !== "*") continue;
    const match = offered.find((o) => range.subtype === "*" || range.subtype === o.subtype);
    if (match !== undefined) return { form: match.form, contentType: match.contentType };
  }
  return undefined;
}
