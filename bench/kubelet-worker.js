// Worker entry for bench/kubelet-thread.ts: workers do not inherit tsx's loader, so register it here.
import { register } from "tsx/esm/api";

register();
await import("./kubelet-thread.ts");
