import {
  badRequest,
  type FieldErrorList,
  FieldPath,
  forbiddenField,
  invalid,
  invalidObject,
  methodNotAllowed,
  type Pod,
} from "../../api/index.ts";
import { getFromKubelet, pipeReply } from "./node-proxy.ts";
import type { HandlerDeps, RequestScope } from "./scope.ts";

/**
 * GET pods/NAME/log: upstream's LogREST. The `PodLogOptions` are validated, the container chosen
 * (`ValidateContainer`), and the log streamed from the kubelet of the pod's node
 * (`/containerLogs/NAMESPACE/POD/CONTAINER`), whose refusals become a 400 with its message.
 * A pod no node runs yet has an empty log.
 */
export async function handlePodLog(deps: HandlerDeps, scope: RequestScope): Promise<void> {
  const { info, query, res } = scope;
  if (info.verb !== "get") throw methodNotAllowed();
  const errors = validatePodLogOptions(query);
  if (errors.length > 0)
    throw invalidObject({ group: "", kind: "PodLogOptions" }, info.name, errors);
  const pod = (await scope.store.get(info.namespace, info.name)) as unknown as Pod;
  const container = chooseContainer(pod, query.get("container") ?? "");
  const nodeName = pod.spec?.nodeName ?? "";
  if (nodeName === "") {
    res.writeHead(200, { "Content-Type": "text/plain" });
    res.end();
    return;
  }
  const node = await deps.registry
    .lookup("", "v1", "nodes")
    ?.get("", nodeName)
    .catch(() => undefined);
  const forwarded = new URLSearchParams(query);
  forwarded.delete("container");
  const path = `/containerLogs/${encodeURIComponent(info.namespace)}/${encodeURIComponent(info.name)}/${encodeURIComponent(container)}`;
  const reply = await getFromKubelet(
    node,
    nodeName,
    `${path}${forwarded.size > 0 ? `?${forwarded}` : ""}`,
  );
  if (reply.statusCode !== 200) throw badRequest((await readAll(reply)).trim());
  res.writeHead(200, { "Content-Type": reply.headers["content-type"] ?? "text/plain" });
  await pipeReply(reply, res);
}

async function readAll(reply: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of reply) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** Upstream's `ValidatePodLogOptions` over the query. */
function validatePodLogOptions(query: URLSearchParams): FieldErrorList {
  const errs: FieldErrorList = [];
  const int = (name: string): number | undefined => {
    const text = query.get(name);
    if (text === null || text === "") return undefined;
    const value = Number(text);
    if (!Number.isInteger(value))
      throw badRequest(`strconv.ParseInt: parsing "${text}": invalid syntax`);
    return value;
  };
  const tailLines = int("tailLines");
  if (tailLines !== undefined && tailLines < 0) {
    errs.push(invalid(FieldPath.of("tailLines"), tailLines, "must be greater than or equal to 0"));
  }
  const limitBytes = int("limitBytes");
  if (limitBytes !== undefined && limitBytes < 1) {
    errs.push(invalid(FieldPath.of("limitBytes"), limitBytes, "must be greater than 0"));
  }
  const sinceSeconds = int("sinceSeconds");
  const sinceTime = query.get("sinceTime");
  if (sinceSeconds !== undefined && sinceTime !== null && sinceTime !== "") {
    errs.push(
      forbiddenField(
        FieldPath.of(""),
        "at most one of `sinceTime` or `sinceSeconds` may be specified",
      ),
    );
  } else if (sinceSeconds !== undefined && sinceSeconds < 1) {
    errs.push(invalid(FieldPath.of("sinceSeconds"), sinceSeconds, "must be greater than 0"));
  }
  return errs;
}

/** Upstream's `ValidateContainer`: the one container when none is named, else a known name. */
function chooseContainer(pod: Pod, container: string): string {
  const spec = pod.spec ?? { containers: [] };
  const name = pod.metadata.name ?? "";
  const all = [
    ...(spec.initContainers ?? []),
    ...(spec.containers ?? []),
    ...(spec.ephemeralContainers ?? []),
  ].map((c) => c.name);
  if (container !== "") {
    if (!all.includes(container))
      throw badRequest(`container ${container} is not valid for pod ${name}`);
    return container;
  }
  const regular = spec.containers ?? [];
  if (regular.length === 1) return regular[0]?.name ?? "";
  if (regular.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
  throw badRequest(
    `a container name must be specified for pod ${name}, choose one of: [${all.join(" ")}]`,
  );
}

/**
 * POST (or GET) pods/NAME/exec, attach and portforward: emulated containers run no process, so
 * there is nothing to stream to. The pod must exist (404 otherwise); the answer is a 400 saying
 * so, which kubectl prints instead of upgrading the connection.
 */
export async function refuseStream(scope: RequestScope): Promise<void> {
  const { info } = scope;
  if (info.verb !== "create" && info.verb !== "get") throw methodNotAllowed();
  await scope.store.get(info.namespace, info.name);
  throw badRequest(
    `${info.subresource} is not available for pod ${info.name}: gantry's emulated containers run no processes (see docs/deviations.md)`,
  );
}
