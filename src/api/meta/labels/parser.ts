// The label selector string grammar, following apimachinery `labels.Parse` token by token so that
// every error message matches upstream's:
//
//   selector    ::= requirement | requirement "," selector
//   requirement ::= ["!"] KEY [ ("in" | "notin") "(" values ")" | ("=" | "==" | "!=" | ">" | "<") VALUE ]

import { badRequest } from "../../errors.ts";
import { type LabelRequirement, labelKeyError, newRequirement } from "./requirement.ts";

type Token =
  | "error"
  | "end"
  | "closedPar"
  | "comma"
  | "doesNotExist"
  | "doubleEquals"
  | "equals"
  | "greaterThan"
  | "identifier"
  | "in"
  | "lessThan"
  | "notEquals"
  | "notIn"
  | "openPar";

interface Item {
  readonly token: Token;
  readonly literal: string;
}

const literalTokens: ReadonlyMap<string, Token> = new Map<string, Token>([
  [")", "closedPar"],
  [",", "comma"],
  ["!", "doesNotExist"],
  ["==", "doubleEquals"],
  ["=", "equals"],
  [">", "greaterThan"],
  ["in", "in"],
  ["<", "lessThan"],
  ["!=", "notEquals"],
  ["notin", "notIn"],
  ["(", "openPar"],
]);

function isWhitespace(ch: string): boolean {
  return ch === " " || ch === "\t" || ch === "\r" || ch === "\n";
}

function isSpecialSymbol(ch: string): boolean {
  return "=!(),><".includes(ch);
}

/** Splits the selector into tokens; a NUL character ends the input, as in upstream's lexer. */
function scan(text: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  const atEnd = (): boolean => pos >= text.length || text[pos] === "\0";
  for (;;) {
    while (!atEnd() && isWhitespace(text[pos] ?? "")) pos++;
    if (atEnd()) {
      items.push({ token: "end", literal: "" });
      return items;
    }
    const start = pos;
    if (isSpecialSymbol(text[pos] ?? "")) {
      // Longest run of special symbols that still forms a known operator.
      let matched: Item | undefined;
      let buffer = "";
      while (!atEnd() && isSpecialSymbol(text[pos] ?? "")) {
        buffer += text[pos];
        const token = literalTokens.get(buffer);
        if (token !== undefined) {
          matched = { token, literal: buffer };
        } else if (matched !== undefined) {
          break;
        }
        pos++;
      }
      if (matched === undefined) {
        items.push({ token: "error", literal: `error expected: keyword found '${buffer}'` });
      } else {
        pos = start + matched.literal.length;
        items.push(matched);
      }
      continue;
    }
    while (!atEnd() && !isSpecialSymbol(text[pos] ?? "") && !isWhitespace(text[pos] ?? "")) pos++;
    const literal = text.slice(start, pos);
    items.push({ token: literalTokens.get(literal) ?? "identifier", literal });
  }
}

/** `in` and `notin` are plain identifiers where a value is expected (`x in (in)`). */
type Context = "keyAndOperator" | "values";

class ParseFailure extends Error {}

class Parser {
  readonly #items: readonly Item[];
  #position = 0;

  constructor(items: readonly Item[]) {
    this.#items = items;
  }

  lookahead(context: Context): Item {
    return this.#adjust(this.#items[this.#position], context);
  }

  consume(context: Context): Item {
    const item = this.#items[this.#position];
    if (this.#position < this.#items.length - 1) this.#position++;
    return this.#adjust(item, context);
  }

  #adjust(item: Item | undefined, context: Context): Item {
    const it = item ?? { token: "end", literal: "" };
    if (context === "values" && (it.token === "in" || it.token === "notIn")) {
      return { token: "identifier", literal: it.literal };
    }
    return it;
  }
}

function fail(message: string): never {
  throw new ParseFailure(message);
}

function parseRequirement(p: Parser): LabelRequirement {
  // Key, and the operator when it is implied (`k` or `!k`).
  let unary: "exists" | "!" | undefined;
  let item = p.consume("values");
  if (item.token === "doesNotExist") {
    unary = "!";
    item = p.consume("values");
  }
  if (item.token !== "identifier") fail(`found '${item.literal}', expected: identifier`);
  const key = item.literal;
  const keyError = labelKeyError(key, "<nil>");
  if (keyError !== "") fail(keyError);
  const next = p.lookahead("values").token;
  if ((next === "end" || next === "comma") && unary === undefined) unary = "exists";

  let operator: string;
  let values: string[];
  if (unary !== undefined) {
    operator = unary;
    values = [];
  } else {
    const op = p.consume("keyAndOperator");
    operator = operatorOf(op);
    values = operator === "in" || operator === "notin" ? parseValues(p) : parseExactValue(p);
  }
  const { requirement, error } = newRequirement(key, operator, values);
  if (error !== "") fail(error);
  return requirement;
}

function operatorOf(item: Item): string {
  switch (item.token) {
    case "in":
      return "in";
    case "equals":
      return "=";
    case "doubleEquals":
      return "==";
    case "greaterThan":
      return "gt";
    case "lessThan":
      return "lt";
    case "notIn":
      return "notin";
    case "notEquals":
      return "!=";
    default:
      return fail(`found '${item.literal}', expected: in, notin, =, ==, !=, gt, lt`);
  }
}

/** A sorted, de-duplicated set, as `sets.String.List()`. */
function setList(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function parseValues(p: Parser): string[] {
  const open = p.consume("values");
  if (open.token !== "openPar") fail(`found '${open.literal}' expected: '('`);
  const first = p.lookahead("values");
  switch (first.token) {
    case "identifier":
    case "comma": {
      const values = parseIdentifiersList(p);
      if (p.consume("values").token !== "closedPar") {
        fail(`found '${first.literal}', expected: ')'`);
      }
      return values;
    }
    case "closedPar":
      p.consume("values");
      return [""];
    default:
      return fail(`found '${first.literal}', expected: ',', ')' or identifier`);
  }
}

function parseIdentifiersList(p: Parser): string[] {
  const values = new Set<string>();
  for (;;) {
    const item = p.consume("values");
    if (item.token === "identifier") {
      values.add(item.literal);
      const after = p.lookahead("values");
      if (after.token === "comma") continue;
      if (after.token === "closedPar") return setList(values);
      fail(`found '${after.literal}', expected: ',' or ')'`);
    } else if (item.token === "comma") {
      if (values.size === 0) values.add("");
      const after = p.lookahead("values").token;
      if (after === "closedPar") {
        values.add("");
        return setList(values);
      }
      if (after === "comma") values.add("");
    } else {
      fail(`found '${item.literal}', expected: ',', or identifier`);
    }
  }
}

function parseExactValue(p: Parser): string[] {
  const next = p.lookahead("values").token;
  if (next === "end" || next === "comma") return [""];
  const item = p.consume("values");
  if (item.token === "identifier") return [item.literal];
  return fail(`found '${item.literal}', expected: identifier`);
}

/**
 * Parses a selector string into requirements sorted by key (stable), or throws ApiError 400 with
 * upstream's message. An empty string yields no requirements (everything).
 */
export function parseRequirements(text: string): LabelRequirement[] {
  const p = new Parser(scan(text));
  const requirements: LabelRequirement[] = [];
  try {
    for (;;) {
      const item = p.lookahead("values");
      if (item.token === "end") break;
      if (item.token !== "identifier" && item.token !== "doesNotExist") {
        fail(`found '${item.literal}', expected: !, identifier, or 'end of string'`);
      }
      try {
        requirements.push(parseRequirement(p));
      } catch (error: unknown) {
        if (error instanceof ParseFailure) {
          throw new ParseFailure(`unable to parse requirement: ${error.message}`);
        }
        throw error;
      }
      const after = p.consume("values");
      if (after.token === "end") break;
      if (after.token !== "comma") {
        fail(`found '${after.literal}', expected: ',' or 'end of string'`);
      }
      const nextItem = p.lookahead("values");
      if (nextItem.token !== "identifier" && nextItem.token !== "doesNotExist") {
        fail(`found '${nextItem.literal}', expected: identifier after ','`);
      }
    }
  } catch (error: unknown) {
    if (error instanceof ParseFailure) throw badRequest(error.message);
    throw error;
  }
  return requirements
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (a.r.key < b.r.key ? -1 : a.r.key > b.r.key ? 1 : a.i - b.i))
    .map(({ r }) => r);
}
