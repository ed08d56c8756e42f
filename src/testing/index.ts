export {
  type GantryProcess,
  type KubectlResult,
  kubectl,
  kubectlDir,
  type StartOptions,
  startGantry,
} from "./gantry-process.ts";
