import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";

/** The layer table of docs/architecture.md: which component may import which. */
const allowed: Readonly<Record<string, readonly string[]>> = {
  util: [],
  api: ["util"],
  storage: ["api", "util"],
  client: ["api", "util"],
  apiserver: ["storage", "api", "util"],
  scheduler: ["client", "api", "util"],
  controllers: ["client", "api", "util"],
  queueing: ["client", "api", "util"],
  kubelet: ["client", "api", "util"],
  // Browser code: only the pure parts of api/ and util/ (see the node: check below).
  dashboard: ["api", "util"],
  cmd: [
    "apiserver",
    "storage",
    "client",
    "scheduler",
    "controllers",
    "queueing",
    "kubelet",
    "api",
    "util",
  ],
  testing: [
    "cmd",
    "apiserver",
    "storage",
    "client",
    "scheduler",
    "controllers",
    "queueing",
    "kubelet",
    "api",
    "util",
  ],
};

const srcRoot = resolve(import.meta.dirname, "..", "src");

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (path.endsWith(".ts")) yield path;
  }
}

function componentOf(path: string): string {
  return relative(srcRoot, path).split("/")[0] ?? "";
}

/**
 * Tests, and the fixtures that only tests import (`test-fixtures.ts`, checked below): they may
 * use testing/ builders whatever their component.
 */
function isTestCode(path: string): boolean {
  return path.endsWith(".test.ts") || path.endsWith("/test-fixtures.ts");
}

const importPattern = /(?:import|export)\s[^'"]*?from\s+["'](\.[^"']+)["']/g;

for (const file of sourceFiles(srcRoot)) {
  const rel = relative(srcRoot, file);
  const component = componentOf(file);
  test(`architecture: imports of ${rel} respect the layer table`, () => {
    assert.ok(
      component in allowed,
      `${rel} is in an unknown component "${component}": add it to the table`,
    );
    const isTest = isTestCode(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(importPattern)) {
      const target = resolve(dirname(file), match[1] ?? "");
      const targetComponent = componentOf(target);
      if (targetComponent === component) continue;
      if (isTest && targetComponent === "testing") continue;
      assert.ok(
        allowed[component]?.includes(targetComponent),
        `${rel} imports ${relative(srcRoot, target)}: ${component}/ may import only ${allowed[component]?.join(", ")}`,
      );
      assert.equal(
        relative(srcRoot, target),
        `${targetComponent}/index.ts`,
        `${rel} reaches into ${relative(srcRoot, target)}: import ${targetComponent}/index.ts instead`,
      );
    }
  });
}

test("architecture: only tests and fixtures import a test-fixtures.ts", () => {
  for (const file of sourceFiles(srcRoot)) {
    if (isTestCode(file)) continue;
    for (const match of readFileSync(file, "utf8").matchAll(importPattern)) {
      assert.ok(
        !(match[1] ?? "").endsWith("/test-fixtures.ts"),
        `${relative(srcRoot, file)} imports ${match[1]}: fixtures are for tests only`,
      );
    }
  }
});

test("architecture: production code never imports testing/ or node:test", () => {
  for (const file of sourceFiles(srcRoot)) {
    if (file.endsWith(".test.ts") || componentOf(file) === "testing") continue;
    if (
      file.includes("/testdata/") ||
      file.endsWith("conformance.ts") ||
      file.includes("conformance-")
    )
      continue;
    const text = readFileSync(file, "utf8");
    assert.doesNotMatch(
      text,
      /from\s+["']node:test["']/,
      `${relative(srcRoot, file)} imports node:test`,
    );
  }
});

// The dashboard runs in the browser: nothing it bundles may import a node: module. Its tests and
// its Vite config run in Node and are not bundled.
test("architecture: src/dashboard imports no node: module", () => {
  const nodeImport =
    /(?:import|export)\s[^'"]*?from\s+["'](node:[^"']+)["']|import\(\s*["'](node:[^"']+)["']/;
  for (const file of sourceFiles(join(srcRoot, "dashboard"))) {
    if (file.endsWith(".test.ts") || file.endsWith("vite.config.ts")) continue;
    const found = nodeImport.exec(readFileSync(file, "utf8"));
    assert.equal(found, null, `${relative(srcRoot, file)} imports ${found?.[1] ?? found?.[2]}`);
  }
});

test("architecture: no component imports the dashboard", () => {
  for (const file of sourceFiles(srcRoot)) {
    if (componentOf(file) === "dashboard") continue;
    for (const match of readFileSync(file, "utf8").matchAll(importPattern)) {
      const target = resolve(dirname(file), match[1] ?? "");
      assert.notEqual(
        componentOf(target),
        "dashboard",
        `${relative(srcRoot, file)} imports ${relative(srcRoot, target)}: nothing imports the dashboard`,
      );
    }
  }
});

/**
 * The arguments of each `assert.ok(` call in `text`, split at top-level commas. Strings and
 * template literals are skipped whole, so commas and brackets inside them do not count.
 */
function assertOkArguments(text: string): string[][] {
  const calls: string[][] = [];
  for (
    let start = text.indexOf("assert.ok(");
    start >= 0;
    start = text.indexOf("assert.ok(", start + 1)
  ) {
    const args: string[] = [];
    let depth = 1;
    let from = start + "assert.ok(".length;
    let at = from;
    for (; depth > 0 && at < text.length; at++) {
      const c = text[at] ?? "";
      if (c === '"' || c === "'" || c === "`") {
        for (at++; at < text.length && text[at] !== c; at++) if (text[at] === "\\") at++;
      } else if ("([{".includes(c)) depth++;
      else if (")]}".includes(c)) depth--;
      else if (c === "," && depth === 1) {
        args.push(text.slice(from, at));
        from = at + 1;
      }
    }
    args.push(text.slice(from, at - 1));
    calls.push(args.map((a) => a.trim()).filter((a) => a !== ""));
  }
  return calls;
}

// Node 20 builds the message of a failing message-less assert.ok by re-parsing the caller's
// source at the failing column. tsx compiles each file to one long line, so that parse takes
// minutes in a large test file, and a retried check (eventually) stalls the whole run.
test("architecture: every assert.ok in a test gives its own message", () => {
  for (const root of [srcRoot, import.meta.dirname]) {
    for (const file of sourceFiles(root)) {
      if (file === import.meta.filename) continue; // its strings name the call it looks for
      const rel = relative(root, file);
      for (const args of assertOkArguments(readFileSync(file, "utf8"))) {
        assert.ok(args.length >= 2, `${rel}: assert.ok(${args[0] ?? ""}) needs a message`);
      }
    }
  }
});
