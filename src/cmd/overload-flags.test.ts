import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { overloadSettings } from "./overload-flags.ts";
import { UsageError } from "./usage-error.ts";

const dir = mkdtempSync(join(tmpdir(), "gantry-overload-flags-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const policy = join(dir, "policy.yaml");
writeFileSync(policy, "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n");

test("overloadSettings: upstream's defaults, gantry's watch cap, no auditing", () => {
  assert.deepEqual(overloadSettings({}), {
    enablePriorityAndFairness: true,
    requestTimeoutMs: 60_000,
    maxWatchesPerUser: 1000,
  });
});

test("overloadSettings: every flag read", () => {
  const settings = overloadSettings({
    "enable-priority-and-fairness": "false",
    "request-timeout": "30s",
    "max-watches-per-user": "0",
    "audit-policy-file": policy,
    "audit-log-path": "-",
    "audit-log-maxsize": "10",
    "audit-log-maxbackup": "3",
    "audit-log-maxage": "7",
    "audit-log-format": "json",
  });
  assert.equal(settings.enablePriorityAndFairness, false);
  assert.equal(settings.requestTimeoutMs, 30_000);
  assert.equal(settings.maxWatchesPerUser, 0);
  assert.deepEqual(
    { ...settings.audit, policy: settings.audit?.policy.rules.map((r) => r.level) },
    { policy: ["Metadata"], logPath: "-", maxSizeMB: 10, maxBackups: 3, maxAgeDays: 7 },
  );
  assert.equal(
    overloadSettings({ "audit-policy-file": policy }).audit,
    undefined,
    "a policy without a log audits nothing, as upstream",
  );
});

const mistakes = [
  {
    flags: { "enable-priority-and-fairness": "maybe" },
    want: 'Cannot use --enable-priority-and-fairness "maybe": give true or false (--enable-priority-and-fairness=false)',
  },
  {
    flags: { "request-timeout": "0s" },
    want: 'Cannot use --request-timeout "0s": give a positive duration such as 1m0s or 30s',
  },
  {
    flags: { "max-watches-per-user": "-1" },
    want: 'Cannot use --max-watches-per-user "-1": give a whole number, 0 or more',
  },
  {
    flags: { "audit-log-format": "legacy" },
    want: 'Cannot use --audit-log-format "legacy": gantry writes json only',
  },
  {
    flags: { "audit-policy-file": join(dir, "missing.yaml"), "audit-log-path": "-" },
    want: /^Cannot read --audit-policy-file ".*missing\.yaml": ENOENT/,
  },
] as const;

for (const m of mistakes) {
  test(`overloadSettings: ${JSON.stringify(m.flags)} is a usage error`, () => {
    assert.throws(
      () => overloadSettings(m.flags),
      (error: unknown) => {
        assert.ok(error instanceof UsageError, "a UsageError");
        if (typeof m.want === "string") assert.equal(error.message, m.want);
        else assert.match(error.message, m.want);
        return true;
      },
    );
  });
}
