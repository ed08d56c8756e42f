/**
 * Builds the dashboard bundle: `npm run build:ui` (and `npm ci`, through `prepare`) writes it to
 * dist/ui/, which the API server serves at /ui/. Everything the page needs is bundled: no CDN.
 */
import { join } from "node:path";
import { defineConfig } from "vite";

const root = import.meta.dirname;

/** The bundle's directory: the API server reads it from here (see src/cmd/all-in-one.ts). */
export const dashboardOutDir = join(root, "..", "..", "dist", "ui");

export const dashboardConfig = defineConfig({
  root,
  base: "/ui/",
  logLevel: "warn",
  publicDir: false,
  build: {
    outDir: dashboardOutDir,
    emptyOutDir: true,
    target: "es2022",
    // The api/ modules the dashboard imports are pure: keep only what it uses.
    rolldownOptions: {
      treeshake: {
        moduleSideEffects: (id: string) => !/[/\\]src[/\\](api|util)[/\\]/.test(id),
      },
    },
  },
});

// biome-ignore lint/style/noDefaultExport: Vite finds a config file's settings in its default export
export default dashboardConfig;
