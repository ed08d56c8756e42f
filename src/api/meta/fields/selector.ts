import { badRequest } from "../../errors.ts";

/** One clause of a field selector; `==` is parsed as `=`. */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: "=" | "!=";
  readonly value: string;
}

/** The field values of one object, keyed by field path (`metadata.name`, `spec.nodeName`). */
export type FieldSet = Readonly<Record<string, string>>;

/** Splits on commas that are not escaped with a backslash; escapes stay in the terms. */
function splitTerms(text: string): string[] {
  if (text === "") return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inSlash) {
      inSlash = false;
    } else if (c === "\\") {
      inSlash = true;
    } else if (c === ",") {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

const termOperators = ["!=", "==", "="] as const;

/** Splits at the first operator; the left side has no escaping, as upstream. */
function splitTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i)) {
        return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
      }
    }
  }
  return undefined;
}

/** Removes `\\`, `\,` and `\=` escapes; other escapes and bare `,`/`=` are errors. */
function unescapeValue(text: string): string {
  if (!/[\\,=]/.test(text)) return text;
  let out = "";
  let inSlash = false;
  for (const c of text) {
    if (inSlash) {
      if (c !== "\\" && c !== "," && c !== "=") {
        throw badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
      continue;
    }
    if (c === "\\") {
      inSlash = true;
    } else if (c === "," || c === "=") {
      // Go prints the rune with %v, i.e. its code point.
      throw badRequest(
        `invalid field selector: unescapedRune character in value: ${c.codePointAt(0)}`,
      );
    } else {
      out += c;
    }
  }
  if (inSlash) throw badRequest("invalid field selector: invalid escape sequence: \\");
  return out;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Parses the `fieldSelector` query string (`f=v`, `f==v`, `f!=v`, comma-joined, with `\,`, `\=`
 * and `\\` escapes in values), as apimachinery `fields.ParseSelector`: terms are sorted as raw
 * text first, so errors name the first bad term in that order. Throws ApiError 400 BadRequest.
 * An empty string yields no requirements.
 */
export function parseFieldSelector(text: string): FieldRequirement[] {
  const parts = splitTerms(text).sort(compareStrings);
  const requirements: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === "") continue;
    const split = splitTerm(part);
    if (split === undefined) {
      throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    }
    const value = unescapeValue(split.rhs);
    requirements.push({ field: split.lhs, operator: split.op === "!=" ? "!=" : "=", value });
  }
  return requirements;
}

/** Whether every requirement holds; an absent field reads as `""`, as upstream's `Fields.Get`. */
export function matchesFields(
  requirements: readonly FieldRequirement[],
  fields: FieldSet,
): boolean {
  for (const r of requirements) {
    const actual = Object.hasOwn(fields, r.field) ? (fields[r.field] ?? "") : "";
    if ((actual === r.value) !== (r.operator === "=")) return false;
  }
  return true;
}

/** The value a `field=value` requirement pins, for index lookups (`RequiresExactMatch`). */
export function fieldRequiresExactMatch(
  requirements: readonly FieldRequirement[],
  field: string,
): string | undefined {
  return requirements.find((r) => r.field === field && r.operator === "=")?.value;
}

/** Re-escapes a value for the selector string (`fields.EscapeValue`). */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** The selector text of the requirements, values escaped (`f=v,g!=w`). */
export function fieldSelectorToString(requirements: readonly FieldRequirement[]): string {
  return requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(",");
}

/** The two fields every resource supports. */
export const defaultSelectableFields: readonly string[] = ["metadata.name", "metadata.namespace"];

/**
 * How a resource reports an unsupported field label:
 * - `"custom"`: kinds with their own field-label conversion (core pods, nodes, events, secrets,
 *   namespaces, …) say `field label not supported: foo`;
 * - `"default"`: the default converter (configmaps, CRs, …) says
 *   `"foo" is not a known field selector: only "metadata.name", "metadata.namespace"`.
 */
export type FieldLabelStyle = "custom" | "default";

/**
 * Throws ApiError 400 for the first requirement whose field is not in `supported` (in the
 * selector's sorted order), in the wording of `style`. `supported` must include
 * `metadata.name` and `metadata.namespace` for every style.
 */
export function checkSelectableFields(
  requirements: readonly FieldRequirement[],
  supported: ReadonlySet<string> | readonly string[],
  style: FieldLabelStyle,
): void {
  const known: ReadonlySet<string> = new Set(supported);
  for (const r of requirements) {
    if (known.has(r.field)) continue;
    if (style === "custom") throw badRequest(`field label not supported: ${r.field}`);
    throw badRequest(
      `${JSON.stringify(r.field)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
    );
  }
}
