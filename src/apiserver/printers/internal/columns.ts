import type { TableColumnDefinition } from "../table.ts";

/** `metav1.ObjectMeta{}.SwaggerDoc()["name"]`. */
export const nameDescription =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

/** `metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]`. */
export const creationTimestampDescription =
  "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/** Upstream's description of the wide CONTAINERS column. */
export const containersDescription = "Names of each container in the template.";
/** Upstream's description of the wide IMAGES column. */
export const imagesDescription = "Images referenced by each container in the template.";

/** A column definition; wide-only columns pass `priority: 1`. */
export function column(
  name: string,
  type: string,
  description: string,
  options: { format?: string; priority?: number } = {},
): TableColumnDefinition {
  return {
    name,
    type,
    format: options.format ?? "",
    description,
    priority: options.priority ?? 0,
  };
}

/** The NAME column every printer starts with. */
export const nameColumn: TableColumnDefinition = column("Name", "string", nameDescription, {
  format: "name",
});

/** The AGE column: a humanized duration string (type `string`, as upstream declares it). */
export const ageColumn: TableColumnDefinition = column(
  "Age",
  "string",
  creationTimestampDescription,
);

/** Wide CONTAINERS and IMAGES columns. */
export const containerColumns: readonly TableColumnDefinition[] = [
  column("Containers", "string", containersDescription, { priority: 1 }),
  column("Images", "string", imagesDescription, { priority: 1 }),
];
