// The root CA certificate publisher.
export {
  descriptionAnnotation,
  newRootCaPublisher,
  type RootCaPublisherDeps,
  type RootCaPublisherOptions,
  rootCaConfigMapChange,
  rootCaConfigMapName,
  rootCaDescription,
} from "./controller.ts";
