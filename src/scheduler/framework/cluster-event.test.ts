import assert from "node:assert/strict";
import { test } from "node:test";
import {
  actionType,
  type ClusterEvent,
  clusterEvents,
  eventLabel,
  matchClusterEvents,
} from "./cluster-event.ts";

const cases: readonly {
  name: string;
  registered: ClusterEvent;
  incoming: ClusterEvent;
  want: boolean;
}[] = [
  {
    name: "Pod covers bound pods",
    registered: { resource: "Pod", actionType: actionType.delete },
    incoming: clusterEvents.assignedPodDelete,
    want: true,
  },
  {
    name: "Pod covers waiting pods",
    registered: { resource: "Pod", actionType: actionType.updatePodLabel },
    incoming: { resource: "UnscheduledPod", actionType: actionType.updatePodLabel },
    want: true,
  },
  {
    name: "another action does not match",
    registered: { resource: "Node", actionType: actionType.add },
    incoming: { resource: "Node", actionType: actionType.updateNodeLabel },
    want: false,
  },
  {
    name: "Update covers every kind of update",
    registered: { resource: "Node", actionType: actionType.update },
    incoming: { resource: "Node", actionType: actionType.updateNodeTaint },
    want: true,
  },
  {
    name: "a wildcard incoming event matches every registration",
    registered: { resource: "PodGroup", actionType: actionType.add },
    incoming: clusterEvents.unschedulableTimeout,
    want: true,
  },
  {
    name: "a custom resource matches itself only",
    registered: { resource: "PodGroup", actionType: actionType.add },
    incoming: { resource: "Workload", actionType: actionType.add },
    want: false,
  },
];

for (const c of cases) {
  test(`matchClusterEvents: ${c.name}`, () => {
    assert.equal(matchClusterEvents(c.registered, c.incoming), c.want);
  });
}

test("eventLabel: names resource and actions", () => {
  assert.equal(
    eventLabel({ resource: "Node", actionType: actionType.add | actionType.updateNodeLabel }),
    "NodeAdd|UpdateNodeLabel",
  );
  assert.equal(eventLabel(clusterEvents.nodeAdd), "NodeAdd");
});
