#!/usr/bin/env node
// The `gantry` command: runs the TypeScript entry point through tsx.
import { register } from "tsx/esm/api";

register();
await import("../src/cmd/gantry.ts");
