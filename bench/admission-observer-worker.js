// Worker entry for bench/admission-observer.ts: workers do not inherit tsx's loader, so register it here.
import { register } from "tsx/esm/api";

register();
await import("./admission-observer.ts");
