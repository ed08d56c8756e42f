/**
 * Serves the dashboard's built bundle (src/dashboard, built to dist/ui by `npm run build:ui`) at
 * `/ui/`, before authentication: the files hold no cluster data, and the page's API requests go
 * through the normal authentication. GET and HEAD only. `/ui` redirects to `/ui/`; `/ui/` and
 * any other path that names no file (the page's own routes) get index.html, except under
 * `/ui/assets/`, where a missing file is a 404. Hashed assets are cached for good, index.html is
 * revalidated every time. A path can never leave the bundle's directory.
 */
import { readFile, realpath, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, relative, sep } from "node:path";

export interface DashboardAssetsOptions {
  /** The built bundle's directory (holding index.html and assets/). */
  readonly dir: string;
}

export interface DashboardAssets {
  /** Answers a request whose path `isDashboardPath` accepted (`pathname` as sent, escapes kept). */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void>;
}

/** The path prefix the dashboard is served under. */
export const dashboardPrefix = "/ui/";

/** The message of the 503 answered while the bundle is not built. */
export const dashboardNotBuiltMessage =
  "The gantry dashboard is not built: run `npm run build:ui` in the gantry checkout (`npm ci` runs it too), then reload this page.";

/** Whether a request path belongs to the dashboard. */
export function isDashboardPath(pathname: string): boolean {
  return pathname === "/ui" || pathname.startsWith(dashboardPrefix);
}

const contentTypes: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/** What the page may load: only this server (no CDN), inline style attributes for Lit. */
const contentSecurityPolicy =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const immutable = "public, max-age=31536000, immutable";

function writePlain(res: ServerResponse, code: number, text: string, head: boolean): void {
  res.statusCode = code;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(head ? undefined : text);
}

/**
 * The file a request path names, relative to the bundle (`""` for index.html), or undefined
 * when the path is not one a bundle file could have: a bad escape, a NUL or backslash, or a
 * segment that is empty, `.` or `..` after decoding.
 */
export function bundlePathOf(pathname: string): string | undefined {
  if (!pathname.startsWith(dashboardPrefix)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname.slice(dashboardPrefix.length));
  } catch (error: unknown) {
    if (error instanceof URIError) return undefined;
    throw error;
  }
  if (decoded === "") return "";
  if (/[\0\\]/.test(decoded)) return undefined;
  const segments = decoded.split("/");
  // A trailing slash names a directory: the page's routes never end in one, but allow it.
  if (segments.at(-1) === "") segments.pop();
  if (segments.some((s) => s === "" || s === "." || s === "..")) return undefined;
  return segments.join("/");
}

/** Whether `path` is `dir` itself or inside it. */
function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}

async function regularFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (error: unknown) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw error;
  }
}

export function newDashboardAssets(options: DashboardAssetsOptions): DashboardAssets {
  const sendFile = async (
    res: ServerResponse,
    path: string,
    cacheControl: string,
    head: boolean,
  ): Promise<void> => {
    const body = await readFile(path);
    res.statusCode = 200;
    res.setHeader(
      "Content-Type",
      contentTypes[extname(path).toLowerCase()] ?? "application/octet-stream",
    );
    res.setHeader("Cache-Control", cacheControl);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Content-Security-Policy", contentSecurityPolicy);
    res.setHeader("Content-Length", body.length);
    res.end(head ? undefined : body);
  };
  return {
    async serve(req, res, pathname) {
      const head = req.method === "HEAD";
      if (req.method !== "GET" && !head) {
        res.setHeader("Allow", "GET, HEAD");
        writePlain(res, 405, "Method Not Allowed\n", false);
        return;
      }
      if (pathname === "/ui") {
        const query = (req.url ?? "").indexOf("?");
        res.statusCode = 301;
        res.setHeader(
          "Location",
          `${dashboardPrefix}${query < 0 ? "" : (req.url ?? "").slice(query)}`,
        );
        res.setHeader("Content-Length", 0);
        res.end();
        return;
      }
      const index = join(options.dir, "index.html");
      if (!(await regularFile(index))) {
        writePlain(res, 503, `${dashboardNotBuiltMessage}\n`, head);
        return;
      }
      const file = bundlePathOf(pathname);
      if (file === undefined) {
        writePlain(res, 400, "Bad Request: not a dashboard path\n", head);
        return;
      }
      if (file !== "") {
        const path = join(options.dir, file);
        if (isInside(options.dir, path) && (await regularFile(path))) {
          // A symbolic link inside the bundle must not lead out of it.
          const [realDir, realPath] = await Promise.all([realpath(options.dir), realpath(path)]);
          if (isInside(realDir, realPath)) {
            await sendFile(res, path, file.startsWith("assets/") ? immutable : "no-cache", head);
            return;
          }
        }
        if (file.startsWith("assets/") || file === "assets") {
          writePlain(res, 404, "Not Found\n", head);
          return;
        }
      }
      await sendFile(res, index, "no-cache", head);
    },
  };
}
