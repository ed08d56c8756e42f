/**
 * Attaches `description`s to a CRD's structural schema from a table keyed by field path, so the
 * schema builders stay free of documentation and `kubectl explain` prints upstream's text.
 * A path names properties joined by dots ("spec.resourceGroups.flavors.name"); list items are
 * transparent (a list's item properties are addressed through the list's own name) and "" is
 * the root object.
 */
import type { JSONSchemaProps, Schema } from "../../api/index.ts";

/** Descriptions by field path. */
export type Descriptions = Readonly<Record<string, string>>;

/** Upstream's descriptions are multi-line Go doc comments: one argument per line. */
export const lines = (...parts: string[]): string => parts.join("\n");

/** `descriptions` with every path moved under `prefix` ("" in `descriptions` becomes `prefix`). */
export function under(prefix: string, descriptions: Descriptions): Record<string, string> {
  return Object.fromEntries(
    Object.entries(descriptions).map(([path, text]) => [
      path === "" ? prefix : `${prefix}.${path}`,
      text,
    ]),
  );
}

/**
 * A copy of `schema` with each path's description set. Throws on a path the schema does not
 * declare, so a renamed or removed field cannot leave its description behind unnoticed.
 */
export function describe(schema: JSONSchemaProps, descriptions: Descriptions): JSONSchemaProps {
  const unused = new Set(Object.keys(descriptions));
  const walk = (node: Schema, path: string, self: boolean): Schema => {
    const text = self ? descriptions[path] : undefined;
    if (self) unused.delete(path);
    const out: Schema = { ...node, ...(text === undefined ? {} : { description: text }) };
    if (node.properties !== undefined) {
      const prefix = path === "" ? "" : `${path}.`;
      out.properties = Object.fromEntries(
        Object.entries(node.properties).map(([name, child]) => [
          name,
          walk(child, `${prefix}${name}`, true),
        ]),
      );
    }
    // A list's description is the field's; its items' properties are addressed through it.
    if (node.items !== undefined) out.items = walk(node.items, path, false);
    return out;
  };
  const described = walk(schema, "", true) as JSONSchemaProps;
  if (unused.size > 0) {
    throw new Error(`descriptions for undeclared fields: ${[...unused].join(", ")}`);
  }
  return described;
}

/** The paths of the properties under `schema` that carry no (or an empty) description. */
export function undescribedFields(schema: Schema): string[] {
  const out: string[] = [];
  const walk = (node: Schema, path: string): void => {
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const childPath = path === "" ? name : `${path}.${name}`;
      if ((child.description ?? "").trim() === "") out.push(childPath);
      walk(child, childPath);
    }
    if (node.items !== undefined) walk(node.items, path);
  };
  walk(schema, "");
  return out;
}
