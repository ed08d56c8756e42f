// Worker entry for bench/fairness-load.ts: workers do not inherit tsx's loader, so register it here.
import { register } from "tsx/esm/api";

register();
await import("./fairness-load.ts");
