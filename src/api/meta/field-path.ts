/**
 * A path into an object, printed as upstream prints `field.Path`: `spec.containers[0].image`,
 * `metadata.labels[app]`.
 */
export class FieldPath {
  readonly #text: string;

  private constructor(text: string) {
    this.#text = text;
  }

  /** The root of a path: `newPath("spec")`, `newPath("metadata", "name")`. */
  static of(root: string, ...more: string[]): FieldPath {
    return more.reduce((path, part) => path.child(part), new FieldPath(root));
  }

  child(name: string, ...more: string[]): FieldPath {
    const first = new FieldPath(this.#text === "" ? name : `${this.#text}.${name}`);
    return more.reduce((path, part) => path.child(part), first);
  }

  index(i: number): FieldPath {
    return new FieldPath(`${this.#text}[${i}]`);
  }

  key(k: string): FieldPath {
    return new FieldPath(`${this.#text}[${k}]`);
  }

  toString(): string {
    return this.#text;
  }
}

/** Shorthand for `FieldPath.of`. */
export const fieldPath = FieldPath.of;
