import {
  type Ingress,
  type IngressClass,
  ingressClassAnnotation,
  isDefaultIngressClassAnnotation,
  newestByCreation,
} from "../../../api/index.ts";
import { type AdmissionPlugin, admit, type ObjectReader } from "../admission.ts";

const segment = "ingressclasses.networking.k8s.io";

/**
 * The default IngressClass among `classes`: those annotated
 * `ingressclass.kubernetes.io/is-default-class: "true"`, newest first (ties by name), as
 * upstream's `getDefaultClass` picks when several are marked. `undefined` when none is.
 */
export function defaultIngressClass(classes: readonly IngressClass[]): IngressClass | undefined {
  return newestByCreation(
    classes.filter((c) => c.metadata.annotations?.[isDefaultIngressClassAnnotation] === "true"),
  );
}

/**
 * DefaultIngressClass (plugin/pkg/admission/network/defaultingressclass): a new Ingress that
 * names no class, neither in `spec.ingressClassName` nor in the deprecated
 * `kubernetes.io/ingress.class` annotation, gets the default IngressClass's name. Nothing
 * happens when no class is marked default.
 */
export function newDefaultIngressClass(reader: ObjectReader): AdmissionPlugin {
  return {
    name: "DefaultIngressClass",
    handles: (a) =>
      a.operation === "CREATE" &&
      a.group === "networking.k8s.io" &&
      a.resource === "ingresses" &&
      a.subresource === "",
    async mutate(a) {
      const ingress = a.object as Ingress;
      ingress.spec ??= {};
      if (ingress.spec.ingressClassName !== undefined && ingress.spec.ingressClassName !== null) {
        return admit;
      }
      if (ingress.metadata.annotations?.[ingressClassAnnotation] !== undefined) return admit;
      // A class created a moment ago (kubectl apply of a class, then an Ingress) must count, so
      // the list is read once the cache has caught up with storage.
      await reader.getFresh(segment, "", "");
      const chosen = defaultIngressClass(reader.list(segment, "") as unknown as IngressClass[]);
      if (chosen?.metadata.name !== undefined) ingress.spec.ingressClassName = chosen.metadata.name;
      return admit;
    },
  };
}
