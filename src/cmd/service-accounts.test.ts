import assert from "node:assert/strict";
import { test } from "node:test";
import { apiServerSettings } from "./apiserver-flags.ts";
import { serviceAccountSettings } from "./service-accounts.ts";
import { UsageError } from "./usage-error.ts";

test("serviceAccountSettings: kubeadm's issuer, no maximum, admission on by default", () => {
  assert.deepEqual(serviceAccountSettings({}, true), {
    issuer: "https://kubernetes.default.svc.cluster.local",
    maxTokenExpirationSeconds: 0,
    admission: true,
  });
  assert.deepEqual(
    serviceAccountSettings(
      {
        "service-account-issuer": "https://issuer.example",
        "service-account-max-token-expiration": "24h",
        "service-account-signing-key-file": "/keys/sa.key",
      },
      false,
    ),
    {
      issuer: "https://issuer.example",
      maxTokenExpirationSeconds: 86400,
      signingKeyFile: "/keys/sa.key",
      admission: false,
    },
  );
});

const refused = [
  {
    values: { "service-account-max-token-expiration": "30m" },
    message:
      "Cannot use --service-account-max-token-expiration: the service-account-max-token-expiration must be between 1 hour and 2^32 seconds",
  },
  {
    values: { "service-account-max-token-expiration": "soon" },
    message:
      'Cannot use --service-account-max-token-expiration "soon": give a duration such as 24h',
  },
  {
    values: { "service-account-issuer": "" },
    message: "Cannot use an empty --service-account-issuer",
  },
  {
    values: { "service-account-issuer": "https://[::1" },
    message:
      "Cannot use --service-account-issuer \"https://[::1\": it contains a ':' but is not a valid URL",
  },
];
for (const c of refused) {
  test(`serviceAccountSettings: ${c.message}`, () => {
    assert.throws(() => serviceAccountSettings(c.values, true), new UsageError(c.message));
  });
}

test("apiServerSettings: --disable-admission-plugins turns ServiceAccount off; an unknown plugin is a usage error", () => {
  assert.equal(apiServerSettings({}).serviceAccounts?.admission, true);
  assert.equal(
    apiServerSettings({ "disable-admission-plugins": "ServiceAccount" }).serviceAccounts?.admission,
    false,
  );
  assert.throws(
    () => apiServerSettings({ "disable-admission-plugins": "ServiceAccount,AlwaysPullImages" }),
    (error: unknown) =>
      error instanceof UsageError &&
      /^Cannot disable admission plugin "AlwaysPullImages": gantry can disable .*\bServiceAccount\b/.test(
        error.message,
      ),
  );
});
