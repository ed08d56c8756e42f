import { storageConformance } from "../conformance.ts";
import { newMemoryStorage } from "./memory-storage.ts";

storageConformance("memory", async () => newMemoryStorage());
