/** The core/v1 Event kind. */
import { type FieldErrorList, invalid } from "../../meta/field-errors.ts";
import { FieldPath } from "../../meta/field-path.ts";
import type { KubeObject } from "../../meta/types.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../validation/meta.ts";
import { coreSchemaRoot } from "./kind-helpers.ts";

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface Event extends KubeObject {
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  source?: { component?: string; host?: string };
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  type?: string;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string };
  action?: string;
  related?: ObjectReference;
  reportingComponent?: string;
  reportingInstance?: string;
}

/** `ValidateEventCreate` (legacy core/v1 rules): the involved object's namespace must match. */
export function validateEvent(event: Event): FieldErrorList {
  const errs = validateObjectMeta(event.metadata, { namespaced: true }, FieldPath.of("metadata"));
  const involvedNs = event.involvedObject?.namespace ?? "";
  if (involvedNs !== "" && involvedNs !== (event.metadata.namespace ?? "")) {
    errs.push(
      invalid(
        FieldPath.of("involvedObject", "namespace"),
        involvedNs,
        "does not match event.namespace",
      ),
    );
  }
  return errs;
}

/** `ValidateEventUpdate`. */
export function validateEventUpdate(event: Event, old: Event): FieldErrorList {
  const errs = validateObjectMetaUpdate(event.metadata, old.metadata, FieldPath.of("metadata"));
  errs.push(...validateEvent(event).filter((e) => !e.field.startsWith("metadata")));
  return errs;
}

/** Upstream's `EventToSelectableFields` (minus metadata). */
export function eventSelectableFields(event: Event): Record<string, string> {
  const o = event.involvedObject ?? {};
  const source = event.source?.component ?? "";
  return {
    "involvedObject.kind": o.kind ?? "",
    "involvedObject.namespace": o.namespace ?? "",
    "involvedObject.name": o.name ?? "",
    "involvedObject.uid": o.uid ?? "",
    "involvedObject.apiVersion": o.apiVersion ?? "",
    "involvedObject.resourceVersion": o.resourceVersion ?? "",
    "involvedObject.fieldPath": o.fieldPath ?? "",
    reason: event.reason ?? "",
    reportingComponent: event.reportingComponent ?? "",
    source: source !== "" ? source : (event.reportingComponent ?? ""),
    type: event.type ?? "",
  };
}

export const eventKind: KindDefinition<Event> = {
  group: "",
  version: "v1",
  kind: "Event",
  listKind: "EventList",
  resource: "events",
  singular: "event",
  namespaced: true,
  shortNames: ["ev"],
  categories: [],
  verbs: allVerbs,
  schema: coreSchemaRoot("Event"),
  tracksGeneration: false,
  subresources: { status: false },
  applyDefaults: () => {},
  validate: validateEvent,
  validateUpdate: validateEventUpdate,
  selectableFields: eventSelectableFields,
};
