// Worker entry for bench/load.ts: workers do not inherit tsx's loader, so register it here.
import { register } from "tsx/esm/api";

register();
await import("./load.ts");
