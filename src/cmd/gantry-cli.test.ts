import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";

const gantryBin = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "bin", "gantry.js");

ensureNoLeaksInEachTest();

test("a one-shot command whose reader has gone (`| head`) stops quietly, as kubectl does", async () => {
  const child = spawn(process.execPath, [gantryBin, "topology", "presets"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The reader goes away before the first line: every write of the command meets a closed pipe.
  child.stdout.destroy();
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  assert.equal(code, 0, `exit code 0 expected; stderr: ${stderr}`);
  assert.equal(stderr, "", "nothing on stderr: no EPIPE, no stack trace");
});

test("a one-shot command still prints its whole output to a reader that stays", async () => {
  const child = spawn(process.execPath, [gantryBin, "topology", "presets"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  assert.equal(code, 0, "exit code 0");
  assert.match(stdout, /^amd-epyc-9654-2s$/m, "the first preset is listed");
  assert.match(stdout, /^intel-xeon-8380-2s$/m, "a later preset is listed too");
});
