/** Named schema definitions of `apps/v1` ControllerRevision, with `kubectl explain` descriptions. */
import { anyValue, int64 } from "../../schema/builders.ts";
import type { Definitions } from "../../schema/schema.ts";
import { appsName, kindSchema, listSchema } from "./schema-helpers.ts";

const gv = { group: "apps", version: "v1" };

export const controllerRevisionDefinitions: Definitions = {
  [appsName("ControllerRevision")]: kindSchema(
    { ...gv, kind: "ControllerRevision" },
    "ControllerRevision implements an immutable snapshot of state data. Clients are responsible for serializing and deserializing the objects that contain their internal state. Once a ControllerRevision has been successfully created, it can not be updated. The API Server will fail validation of all requests that attempt to mutate the Data field. ControllerRevisions may, however, be deleted. Note that, due to its use by both the DaemonSet and StatefulSet controllers for update and rollback, this object is beta. However, it may be subject to name and representation changes in future releases, and clients should not depend on its stability. It is primarily for internal use by controllers.",
    {
      data: anyValue("Data is the serialized representation of the state."),
      revision: int64("Revision indicates the revision of the state represented by Data."),
    },
    ["revision"],
  ),
  [appsName("ControllerRevisionList")]: listSchema(
    { ...gv, kind: "ControllerRevisionList" },
    appsName("ControllerRevision"),
  ),
};
