// A parser for the Kubernetes JSONPath subset that CRD additionalPrinterColumns, kubectl
// `-o jsonpath` single expressions and `kubectl wait --for=jsonpath` use.

/** A literal or relative path on one side of a filter comparison. */
export type FilterOperand =
  | { readonly kind: "literal"; readonly value: string | number | boolean | null }
  | { readonly kind: "path"; readonly steps: readonly Step[] };

/** `[?(@.a == "x")]`, or `[?(@.a)]` (existence) when `op` is undefined. */
export interface Filter {
  readonly left: FilterOperand;
  readonly op?: "==" | "!=" | "<" | ">" | "<=" | ">=";
  readonly right?: FilterOperand;
}

/** One step of a path, applied to every value the previous step produced. */
export type Step =
  | { readonly kind: "field"; readonly names: readonly string[] }
  | { readonly kind: "wildcard" }
  | { readonly kind: "recursive" }
  | { readonly kind: "index"; readonly index: number }
  | {
      readonly kind: "slice";
      readonly start?: number;
      readonly end?: number;
      readonly step?: number;
    }
  | { readonly kind: "filter"; readonly filter: Filter };

/** A parsed path; `steps` start at the root object. */
export interface JsonPath {
  readonly source: string;
  readonly steps: readonly Step[];
}

class Cursor {
  readonly text: string;
  pos = 0;
  constructor(text: string) {
    this.text = text;
  }
  peek(offset = 0): string {
    return this.text[this.pos + offset] ?? "";
  }
  done(): boolean {
    return this.pos >= this.text.length;
  }
  skipSpaces(): void {
    while (this.peek() === " ") this.pos++;
  }
  fail(what: string): never {
    throw new SyntaxError(`Cannot parse JSONPath "${this.text}": ${what} at position ${this.pos}`);
  }
}

const fieldTerminators = new Set([".", "[", "]", " ", ",", "(", ")", "{", "}", "=", "!", "<", ">"]);

/** A field name: any run of characters up to a terminator; `\.` keeps a dot in the name. */
function readName(c: Cursor): string {
  let name = "";
  while (!c.done()) {
    const ch = c.peek();
    if (ch === "\\" && c.peek(1) !== "") {
      name += c.peek(1);
      c.pos += 2;
      continue;
    }
    if (fieldTerminators.has(ch)) break;
    name += ch;
    c.pos++;
  }
  return name;
}

function readQuoted(c: Cursor): string {
  const quote = c.peek();
  c.pos++;
  let out = "";
  while (!c.done() && c.peek() !== quote) {
    if (c.peek() === "\\" && c.peek(1) !== "") {
      out += c.peek(1);
      c.pos += 2;
      continue;
    }
    out += c.peek();
    c.pos++;
  }
  if (c.done()) c.fail("unterminated string");
  c.pos++;
  return out;
}

function readInteger(c: Cursor): number | undefined {
  const m = /^-?\d+/.exec(c.text.slice(c.pos));
  if (m === null) return undefined;
  c.pos += m[0].length;
  return Number(m[0]);
}

function parseBracket(c: Cursor): Step {
  c.pos++; // [
  c.skipSpaces();
  let step: Step;
  const ch = c.peek();
  if (ch === "*") {
    c.pos++;
    step = { kind: "wildcard" };
  } else if (ch === "?") {
    c.pos++;
    step = { kind: "filter", filter: parseFilter(c) };
  } else if (ch === "'" || ch === '"') {
    const names = [readQuoted(c)];
    c.skipSpaces();
    while (c.peek() === ",") {
      c.pos++;
      c.skipSpaces();
      if (c.peek() !== "'" && c.peek() !== '"') c.fail("expected a quoted name");
      names.push(readQuoted(c));
      c.skipSpaces();
    }
    step = { kind: "field", names };
  } else {
    const start = readInteger(c);
    c.skipSpaces();
    if (c.peek() === ":") {
      c.pos++;
      const end = readInteger(c);
      let by: number | undefined;
      if (c.peek() === ":") {
        c.pos++;
        by = readInteger(c);
      }
      const slice: { kind: "slice"; start?: number; end?: number; step?: number } = {
        kind: "slice",
      };
      if (start !== undefined) slice.start = start;
      if (end !== undefined) slice.end = end;
      if (by !== undefined) slice.step = by;
      step = slice;
    } else if (start === undefined) {
      c.fail("expected an index, a slice, a quoted name, * or a filter");
    } else {
      step = { kind: "index", index: start };
    }
  }
  c.skipSpaces();
  if (c.peek() !== "]") c.fail("expected ]");
  c.pos++;
  return step;
}

function parseOperand(c: Cursor): FilterOperand {
  c.skipSpaces();
  const ch = c.peek();
  if (ch === "@") {
    c.pos++;
    return { kind: "path", steps: parseSteps(c, true) };
  }
  if (ch === "'" || ch === '"') return { kind: "literal", value: readQuoted(c) };
  const m = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(c.text.slice(c.pos));
  if (m === null) c.fail("expected a literal or @");
  c.pos += m[0].length;
  const word = m[0];
  const value =
    word === "true" ? true : word === "false" ? false : word === "null" ? null : Number(word);
  return { kind: "literal", value };
}

function parseFilter(c: Cursor): Filter {
  c.skipSpaces();
  if (c.peek() !== "(") c.fail("expected ( after ?");
  c.pos++;
  const left = parseOperand(c);
  c.skipSpaces();
  let filter: Filter = { left };
  const op = /^(==|!=|<=|>=|<|>)/.exec(c.text.slice(c.pos))?.[0];
  if (op !== undefined) {
    c.pos += op.length;
    const right = parseOperand(c);
    filter = { left, op: op as NonNullable<Filter["op"]>, right };
    c.skipSpaces();
  }
  if (c.peek() !== ")") c.fail("expected )");
  c.pos++;
  return filter;
}

function parseSteps(c: Cursor, inFilter: boolean): Step[] {
  const steps: Step[] = [];
  for (;;) {
    const ch = c.peek();
    if (ch === ".") {
      if (c.peek(1) === ".") {
        c.pos += 2;
        steps.push({ kind: "recursive" });
        if (c.peek() === "[") continue;
      } else {
        c.pos++;
      }
      if (c.peek() === "*") {
        c.pos++;
        steps.push({ kind: "wildcard" });
        continue;
      }
      const name = readName(c);
      if (name === "") {
        // A lone "." is the current object.
        if (c.done() || (inFilter && c.peek() !== "[")) return steps;
        c.fail("expected a field name");
      }
      steps.push({ kind: "field", names: [name] });
    } else if (ch === "[") {
      steps.push(parseBracket(c));
    } else {
      return steps;
    }
  }
}

/**
 * Parses one JSONPath expression: `.spec.replicas`, `{.spec.replicas}`, `$.a['b.c'][0]`,
 * `.items[*].metadata.name`, `..name`, `.conditions[?(@.type=="Ready")].status`, `[1:3]`.
 * Throws SyntaxError for anything else (templates with text or several `{}` blocks included).
 */
export function parseJsonPath(source: string): JsonPath {
  let text = source.trim();
  if (text.startsWith("{") && text.endsWith("}")) text = text.slice(1, -1).trim();
  const c = new Cursor(text);
  if (c.peek() === "$") c.pos++;
  const steps = parseSteps(c, false);
  if (!c.done()) c.fail(`unexpected "${c.peek()}"`);
  return { source, steps };
}
