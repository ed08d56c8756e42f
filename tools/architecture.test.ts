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

const importPattern = /(?:import|export)\s[^'"]*?from\s+["'](\.[^"']+)["']/g;

for (const file of sourceFiles(srcRoot)) {
  const rel = relative(srcRoot, file);
  const component = componentOf(file);
  test(`architecture: imports of ${rel} respect the layer table`, () => {
    assert.ok(
      component in allowed,
      `${rel} is in an unknown component "${component}": add it to the table`,
    );
    const isTest = file.endsWith(".test.ts");
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
