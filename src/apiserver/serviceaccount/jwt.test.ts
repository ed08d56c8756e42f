import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { test } from "node:test";
import {
  decodeBase64Url,
  keyIdOf,
  parseCompact,
  signCompact,
  signingKeyFromPem,
  verifySignature,
} from "./jwt.ts";

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

const base64UrlCases = [
  { name: "unpadded base64url", text: "eyJhIjoxfQ", want: '{"a":1}' },
  { name: "the empty string", text: "", want: "" },
  { name: "padding", text: "eyJhIjoxfQ==", want: undefined },
  { name: "standard base64's + and /", text: "ab+/", want: undefined },
  { name: "an impossible length", text: "abcde", want: undefined },
  { name: "whitespace", text: "eyJh IjoxfQ", want: undefined },
] as const;
for (const c of base64UrlCases) {
  test(`decodeBase64Url: ${c.name}`, () => {
    assert.equal(decodeBase64Url(c.text)?.toString("utf8"), c.want);
  });
}

const compactCases = [
  { name: "two segments", token: `${b64({ alg: "RS256" })}.${b64({})}`, ok: false },
  { name: "four segments", token: `${b64({ alg: "RS256" })}.${b64({})}.sig.x`, ok: false },
  { name: "a header that is not an object", token: `${b64(["RS256"])}.${b64({})}.`, ok: false },
  { name: "a payload that is not JSON", token: `${b64({ alg: "RS256" })}.bm90IGpzb24.`, ok: false },
  {
    name: "a crit header",
    token: `${b64({ alg: "RS256", crit: ["exp"] })}.${b64({})}.`,
    ok: false,
  },
  { name: "JSON serialization", token: `{"payload":"${b64({})}"}`, ok: false },
  {
    name: "objects and an empty signature",
    token: `${b64({ alg: "RS256" })}.${b64({ a: 1 })}.`,
    ok: true,
  },
] as const;
for (const c of compactCases) {
  test(`parseCompact: ${c.name}`, () => {
    assert.equal(parseCompact(c.token) !== undefined, c.ok);
  });
}

test("signCompact/verifySignature: the header names the key; only that algorithm verifies", () => {
  const key = signingKeyFromPem(
    generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs1", format: "pem" })
      .toString(),
  );
  const token = signCompact({ sub: "x" }, key);
  const jws = parseCompact(token);
  assert.ok(jws !== undefined, "a signed token parses");
  assert.deepEqual(jws.header, { alg: "RS256", kid: keyIdOf(key.publicKey) });
  assert.equal(verifySignature(jws, key), true);
  assert.equal(verifySignature({ ...jws, header: { ...jws.header, alg: "RS384" } }, key), false);
  assert.equal(verifySignature({ ...jws, signature: Buffer.alloc(3) }, key), false);
});
