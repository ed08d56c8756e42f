// Worker entry for bench/watch-clients.ts: workers do not inherit tsx's loader, so register it here.
import { register } from "tsx/esm/api";

register();
await import("./watch-clients.ts");
