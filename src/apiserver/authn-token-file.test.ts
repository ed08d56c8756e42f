import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import test from "node:test";
import {
  anonymousUser,
  newAnonymousAuthenticator,
  newStaticTokenAuthenticator,
  newTokenAuthenticator,
  parseTokenFile,
} from "./authn.ts";

const file =
  'alice-token,alice,u-1,"team-a,devs"\n\nbob-token,bob,u-2\r\n,nobody,u-3\nalice-token,alice2,u-4\n';

test("parseTokenFile: groups split on commas, system:authenticated added, a later duplicate wins", () => {
  const tokens = parseTokenFile(file, "tokens.csv");
  assert.deepEqual(tokens, [
    {
      token: "alice-token",
      user: { username: "alice2", uid: "u-4", groups: ["system:authenticated"] },
    },
    { token: "bob-token", user: { username: "bob", uid: "u-2", groups: ["system:authenticated"] } },
  ]);
  assert.deepEqual(parseTokenFile('t,alice,u-1,"team-a,devs"\n', "f")[0]?.user.groups, [
    "team-a",
    "devs",
    "system:authenticated",
  ]);
});

const malformed: { name: string; text: string; message: string }[] = [
  {
    name: "fewer than 3 columns",
    text: "t,alice\n",
    message: "token file 'f' must have at least 3 columns (token, user name, user uid), found 2",
  },
  {
    name: "an unclosed quote",
    text: 't,alice,"u\n',
    message: "token file 'f' line 2: extraneous or missing \" in quoted field",
  },
];

for (const c of malformed) {
  test(`parseTokenFile: ${c.name} is a SyntaxError`, () => {
    assert.throws(
      () => parseTokenFile(c.text, "f"),
      (error: Error) => error instanceof SyntaxError && error.message === c.message,
    );
  });
}

function request(path: string, token?: string): IncomingMessage {
  return {
    url: path,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  } as IncomingMessage;
}

test("newTokenAuthenticator: the admin, a file user, and 401 for an unknown token", () => {
  const users = newStaticTokenAuthenticator(parseTokenFile(file, "f"));
  const authenticate = newTokenAuthenticator("admin-secret", undefined, [users]);
  assert.equal(authenticate(request("/api", "admin-secret")).username, "admin");
  assert.equal(authenticate(request("/api", "bob-token")).username, "bob");
  assert.throws(
    () => authenticate(request("/api", "nope")),
    (e: Error) => e.message === "Unauthorized",
  );
  assert.throws(
    () => authenticate(request("/api")),
    (e: Error) => e.message === "Unauthorized",
  );
});

test("newAnonymousAuthenticator: a file user's token identifies them; no token is anonymous", () => {
  const users = newStaticTokenAuthenticator(parseTokenFile(file, "f"));
  const authenticate = newAnonymousAuthenticator("admin-secret", [users]);
  assert.equal(authenticate(request("/api", "bob-token")).username, "bob");
  assert.equal(authenticate(request("/api")), anonymousUser);
});
