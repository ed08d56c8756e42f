// Worker entry for bench/scheduler-load.ts: workers do not inherit tsx's loader, so register it here.
import { register } from "tsx/esm/api";

register();
await import("./scheduler-load.ts");
