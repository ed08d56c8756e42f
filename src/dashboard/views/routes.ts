/**
 * The dashboard's routes: one path per view under the bundle's base (`/ui/`), so a link can be
 * shared and reloaded (the server answers index.html for every such path).
 */

export type Route =
  | { readonly view: "cluster" }
  | { readonly view: "topology"; readonly node: string }
  | { readonly view: "gangs" }
  | { readonly view: "disruption"; readonly node: string }
  | { readonly view: "queues" };

export type ViewName = Route["view"];

/** The views in navigation order, with their titles. */
export const views: readonly { readonly view: ViewName; readonly title: string }[] = [
  { view: "cluster", title: "Cluster" },
  { view: "topology", title: "CPU topology" },
  { view: "gangs", title: "Gangs" },
  { view: "disruption", title: "Disruption" },
  { view: "queues", title: "Queues" },
];

/** The route of `pathname` under `base` (which ends in "/"); unknown paths show the cluster. */
export function parseRoute(pathname: string, base: string): Route {
  const rest = pathname.startsWith(base) ? pathname.slice(base.length) : "";
  const [head = "", ...tail] = rest.split("/");
  const param = decodeURIComponent(tail.join("/"));
  switch (head) {
    case "topology":
      return { view: "topology", node: param };
    case "disruption":
      return { view: "disruption", node: param };
    case "gangs":
      return { view: "gangs" };
    case "queues":
      return { view: "queues" };
    default:
      return { view: "cluster" };
  }
}

/** The path of `route` under `base`. */
export function routePath(route: Route, base: string): string {
  switch (route.view) {
    case "cluster":
      return `${base}cluster`;
    case "topology":
    case "disruption":
      return route.node === ""
        ? `${base}${route.view}`
        : `${base}${route.view}/${encodeURIComponent(route.node)}`;
    case "gangs":
    case "queues":
      return `${base}${route.view}`;
  }
}
