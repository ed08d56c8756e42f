import type { JsonObject } from "../util/index.ts";
import type { Storage, StorageKey } from "./storage.ts";

/** Declares one test that runs `body` against a fresh store, closed afterwards. */
export type It = (title: string, body: (store: Storage) => Promise<void>) => void;

/** The prefix every suite writes under, a key under it, and a small value. */
export const p = "/registry/things/";
export const k = (n: string): StorageKey => `${p}${n}`;
export const v = (n: number): JsonObject => ({ kind: "Thing", spec: { n } });
