import assert from "node:assert/strict";
import { test } from "node:test";
import { parseRequestTarget } from "./target.ts";

/** What the URL parser makes of a target: the reference every case is checked against. */
function viaUrl(target: string): { pathname: string; query: [string, string][] } | undefined {
  if (!URL.canParse(target, "http://gantry.local")) return undefined;
  const url = new URL(target, "http://gantry.local");
  return { pathname: url.pathname, query: [...url.searchParams] };
}

const cases = [
  { name: "a plain resource path", target: "/api/v1/namespaces/default/pods/web-1" },
  { name: "the root", target: "/" },
  { name: "a query with a selector", target: "/api/v1/pods?labelSelector=app%3Dweb&limit=500" },
  { name: "a raw selector with = and !", target: "/api/v1/pods?labelSelector=app!=web,tier" },
  { name: "plus signs as spaces", target: "/api/v1/pods?fieldSelector=a+b" },
  { name: "an empty query", target: "/api/v1/pods?" },
  { name: "repeated keys", target: "/api/v1/pods/x?dryRun=All&dryRun=All" },
  { name: "a dot in a name", target: "/api/v1/namespaces/default/pods/web.1" },
  { name: "a trailing slash", target: "/apis/apps/v1/" },
  { name: "a dot segment", target: "/api/v1/namespaces/../pods" },
  { name: "a trailing dot segment", target: "/api/v1/." },
  { name: "an escaped dot segment", target: "/api/v1/%2e%2E/pods" },
  { name: "a percent escape", target: "/api/v1/namespaces/default/pods/a%20b" },
  { name: "a double slash in front (a host)", target: "//evil/api/v1/pods" },
  { name: "a double slash inside", target: "/api//v1/pods" },
  { name: "a backslash", target: "/api\\v1/pods" },
  { name: "a fragment", target: "/api/v1/pods?watch=1#x" },
  { name: "quotes and brackets in the query", target: '/api/v1/pods?x="a\'<b>`{}"' },
  { name: "a raw space in the query", target: "/api/v1/pods?x=a b" },
  { name: "a tab in the path", target: "/api/v1/po\tds" },
  { name: "non-ASCII in the path", target: "/api/v1/namespaces/é" },
  { name: "non-ASCII in the query", target: "/api/v1/pods?x=é" },
  { name: "a lone percent in the query", target: "/api/v1/pods?x=%zz&y=%" },
  { name: "an absolute-form target", target: "http://example.com/api/v1/pods?limit=1" },
  { name: "an asterisk-form target", target: "*" },
  { name: "a target no parser accepts", target: "http://[/api" },
] as const;

for (const c of cases) {
  test(`parseRequestTarget: ${c.name} reads as the URL parser reads it`, () => {
    const got = parseRequestTarget(c.target);
    assert.deepEqual(
      got === undefined ? undefined : { pathname: got.pathname, query: [...got.query] },
      viaUrl(c.target),
    );
  });
}
