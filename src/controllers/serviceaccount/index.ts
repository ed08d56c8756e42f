// The serviceaccount controller.
export {
  missingServiceAccounts,
  newServiceAccountController,
  type ServiceAccountControllerDeps,
  type ServiceAccountControllerOptions,
  serviceAccountsToEnsure,
} from "./controller.ts";
