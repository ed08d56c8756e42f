import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ensureNoLeaksAfterSuite } from "../testing/leak-check.ts";
import {
  bundlePathOf,
  dashboardNotBuiltMessage,
  isDashboardPath,
  newDashboardAssets,
} from "./dashboard-assets.ts";
import { parseRequestTarget } from "./http/target.ts";

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A listener routing as server.ts does: the request target's pathname, then the assets. */
async function serve(dir: string) {
  const assets = newDashboardAssets({ dir });
  const server = createServer((req, res) => {
    const target = parseRequestTarget(req.url ?? "/");
    if (target === undefined || !isDashboardPath(target.pathname)) {
      res.statusCode = 404;
      res.end("api 404");
      return;
    }
    assets.serve(req, res, target.pathname).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  const get = (path: string, method = "GET"): Promise<Answer> =>
    new Promise((resolve, reject) => {
      // `path` goes out exactly as written: no client-side normalisation of `..`.
      const req = request({ host: "127.0.0.1", port, path, method, timeout: 5000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      });
      req.on("timeout", () => req.destroy(new Error(`no answer to ${path}`)));
      req.on("error", reject);
      req.end();
    });
  return { get, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe("dashboard assets", () => {
  const root = mkdtempSync(join(tmpdir(), "gantry-ui-"));
  const dir = join(root, "ui");
  let server: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    mkdirSync(join(dir, "assets"), { recursive: true });
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>gantry</title>");
    writeFileSync(join(dir, "assets", "index-AbC123.js"), "console.log(1)");
    writeFileSync(join(dir, "assets", "index-AbC123.css"), "body{}");
    writeFileSync(join(root, "secret.txt"), "do not serve");
    symlinkSync(join(root, "secret.txt"), join(dir, "assets", "link.txt"));
    server = await serve(dir);
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });
  ensureNoLeaksAfterSuite();

  const pages = [
    { name: "/ui/ is index.html, revalidated every time", path: "/ui/" },
    { name: "a route of the page is index.html", path: "/ui/topology/node-1" },
  ];
  for (const c of pages) {
    test(`DashboardAssets.serve: ${c.name}`, async () => {
      const got = await server.get(c.path);
      assert.deepEqual(
        [got.status, got.headers["content-type"], got.headers["cache-control"], got.body],
        [200, "text/html; charset=utf-8", "no-cache", "<!doctype html><title>gantry</title>"],
      );
      assert.match(String(got.headers["content-security-policy"]), /default-src 'self'/);
    });
  }

  const assetsCases = [
    { path: "/ui/assets/index-AbC123.js", type: "text/javascript; charset=utf-8" },
    { path: "/ui/assets/index-AbC123.css", type: "text/css; charset=utf-8" },
  ];
  for (const c of assetsCases) {
    test(`DashboardAssets.serve: ${c.path} is cached for good as ${c.type}`, async () => {
      const got = await server.get(c.path);
      assert.deepEqual(
        [got.status, got.headers["content-type"], got.headers["cache-control"]],
        [200, c.type, "public, max-age=31536000, immutable"],
      );
    });
  }

  test("DashboardAssets.serve: HEAD sends the headers without the body", async () => {
    const got = await server.get("/ui/assets/index-AbC123.js", "HEAD");
    assert.deepEqual([got.status, got.headers["content-length"], got.body], [200, "14", ""]);
  });

  test("DashboardAssets.serve: /ui redirects to /ui/, keeping the query", async () => {
    const got = await server.get("/ui?x=1");
    assert.deepEqual([got.status, got.headers["location"]], [301, "/ui/?x=1"]);
  });

  test("DashboardAssets.serve: other methods get 405 with Allow", async () => {
    const got = await server.get("/ui/", "POST");
    assert.deepEqual([got.status, got.headers["allow"]], [405, "GET, HEAD"]);
  });

  test("DashboardAssets.serve: a missing asset is a 404, not the page", async () => {
    const got = await server.get("/ui/assets/gone-123.js");
    assert.equal(got.status, 404);
  });

  const escapes = [
    { path: "/ui/../secret.txt", want: 404, why: "dot segments resolve before routing" },
    { path: "/ui/%2e%2e/secret.txt", want: 404, why: "escaped dot segments resolve too" },
    { path: "/ui/..%2fsecret.txt", want: 400, why: "an escaped slash cannot make a segment" },
    { path: "/ui/assets/..%2f..%2fsecret.txt", want: 400, why: "nor deeper" },
    { path: "/ui/..%5csecret.txt", want: 400, why: "backslashes are refused" },
    { path: "/ui/%00index.html", want: 400, why: "NUL is refused" },
    { path: "/ui/%zz", want: 400, why: "a bad escape is refused" },
    {
      path: "/ui/assets/link.txt",
      want: 404,
      why: "a symbolic link out of the bundle is not followed",
    },
  ];
  for (const c of escapes) {
    test(`DashboardAssets.serve: ${c.path} cannot leave the bundle (${c.why})`, async () => {
      const got = await server.get(c.path);
      assert.equal(got.status, c.want, got.body);
      assert.doesNotMatch(got.body, /do not serve/);
    });
  }

  test("DashboardAssets.serve: without a built bundle /ui/ is a 503 saying how to build it", async () => {
    const empty = await serve(join(root, "missing"));
    try {
      const got = await empty.get("/ui/");
      assert.deepEqual([got.status, got.body], [503, `${dashboardNotBuiltMessage}\n`]);
    } finally {
      await empty.close();
    }
  });
});

const paths = [
  ["/ui/", ""],
  ["/ui/assets/a.js", "assets/a.js"],
  ["/ui/topology/", "topology"],
  ["/ui/a//b", undefined],
  ["/ui/./a", undefined],
  ["/api/v1", undefined],
] as const;
for (const [path, want] of paths) {
  test(`bundlePathOf: ${path} is ${want === undefined ? "refused" : JSON.stringify(want)}`, () => {
    assert.equal(bundlePathOf(path), want);
  });
}
