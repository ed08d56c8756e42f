/**
 * bench:serviceaccount-tokens: what authenticating a bound service account token costs, per
 * request, with the key and objects gantry uses (RSA 2048, RS256): a valid token (parse, one
 * signature check, claims, two map lookups), a pod-bound one (three lookups), and a refused
 * one (another key's signature). Also the cost of issuing a token (one RSA signature).
 *
 * Prints per-operation latency. Not a test: nothing is asserted.
 */
import { generateKeyPairSync } from "node:crypto";
import { performance } from "node:perf_hooks";
import {
  newServiceAccountTokens,
  type ObjectLookup,
  signingKeyFromPem,
} from "../src/apiserver/index.ts";
import { systemClock } from "../src/util/index.ts";
import { fmt, percentile } from "./stats.ts";

const issuer = "https://kubernetes.default.svc.cluster.local";
const keyPem = (): string =>
  generateKeyPairSync("rsa", { modulusLength: 2048 })
    .privateKey.export({ type: "pkcs1", format: "pem" })
    .toString();
const tokens = newServiceAccountTokens({
  key: signingKeyFromPem(keyPem()),
  issuer,
  clock: systemClock,
});
const stranger = newServiceAccountTokens({
  key: signingKeyFromPem(keyPem()),
  issuer,
  clock: systemClock,
});
const objects = new Map([
  ["serviceaccounts/team/ci", { metadata: { uid: "sa-1" } }],
  ["pods/team/web", { metadata: { uid: "pod-1" } }],
]);
const lookup: ObjectLookup = (resource, namespace, name) =>
  objects.get(`${resource}/${namespace}/${name}`);
const authenticate = tokens.authenticator(lookup);
const request = (pod: boolean) => ({
  serviceAccount: { namespace: "team", name: "ci", uid: "sa-1" },
  ...(pod ? { pod: { name: "web", uid: "pod-1" }, node: { name: "node-0", uid: "n-1" } } : {}),
  audiences: [issuer],
  now: new Date(),
  expirationSeconds: 3600,
  warnAfterSeconds: 0,
  jti: "8d0c5a43-1f0e-4a43-9e0c-0e2f3f4e5a6b",
});

function measure(name: string, iterations: number, run: () => unknown): void {
  for (let i = 0; i < 200; i++) run();
  const samples = new Float64Array(iterations);
  const started = performance.now();
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    run();
    samples[i] = performance.now() - t;
  }
  const elapsed = performance.now() - started;
  console.log(
    `${name.padEnd(34)} ${fmt((iterations / elapsed) * 1000).padStart(8)}/s  p50 ${fmt(percentile(samples, 50) * 1000, 1)} µs  p99 ${fmt(percentile(samples, 99) * 1000, 1)} µs`,
  );
}

const plain = tokens.issue(request(false)).token;
const podBound = tokens.issue(request(true)).token;
const foreign = stranger.issue(request(false)).token;
if (authenticate(plain) === undefined || authenticate(podBound) === undefined) {
  throw new Error("the benchmark's tokens do not authenticate");
}
measure("authenticate: valid token", 20_000, () => authenticate(plain));
measure("authenticate: pod-bound token", 20_000, () => authenticate(podBound));
measure("authenticate: another key's token", 20_000, () => authenticate(foreign));
measure("issue: sign one token", 2_000, () => tokens.issue(request(true)));
