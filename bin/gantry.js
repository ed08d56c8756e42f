#!/usr/bin/env -S node --max-semi-space-size=64
// The `gantry` command: runs the TypeScript entry point through tsx. The young generation is
// larger than V8's default (16 MiB semi-spaces): a busy API server keeps many requests in
// flight, and with a small one their objects outlive a scavenge and get promoted, then cost
// full collections; see docs/configuration.md.
import { register } from "tsx/esm/api";

register();
await import("../src/cmd/gantry.ts");
