import assert from "node:assert/strict";
import test from "node:test";
import type { ResourceList } from "../../api/index.ts";
import { computeAllocatable, type Reservations, validateReservation } from "./allocatable.ts";

const none: Reservations = { systemReserved: {}, kubeReserved: {}, evictionHard: {} };

const cases: readonly {
  name: string;
  capacity: ResourceList;
  reservations: Reservations;
  want: ResourceList;
}[] = [
  {
    name: "no reservations keeps capacity",
    capacity: { cpu: "4", memory: "16Gi", pods: "110" },
    reservations: none,
    want: { cpu: "4", memory: "16Gi", pods: "110" },
  },
  {
    name: "system and kube reservations add up and keep capacity's format",
    capacity: { cpu: "4", memory: "16Gi", pods: "110" },
    reservations: {
      systemReserved: { cpu: "100m", memory: "512Mi" },
      kubeReserved: { cpu: "400m", memory: "512Mi" },
      evictionHard: {},
    },
    want: { cpu: "3500m", memory: "15Gi", pods: "110" },
  },
  {
    name: "memory.available and a percentage nodefs.available come off memory and ephemeral-storage",
    capacity: { cpu: "2", memory: "8Gi", "ephemeral-storage": "100Gi" },
    reservations: {
      systemReserved: {},
      kubeReserved: {},
      evictionHard: { "memory.available": "100Mi", "nodefs.available": "10%" },
    },
    want: { cpu: "2", memory: "8092Mi", "ephemeral-storage": "90Gi" },
  },
  {
    name: "signals that guard no resource change nothing",
    capacity: { cpu: "2", memory: "1Gi" },
    reservations: { systemReserved: {}, kubeReserved: {}, evictionHard: { "pid.available": "5%" } },
    want: { cpu: "2", memory: "1Gi" },
  },
  {
    name: "huge pages come out of allocatable memory",
    capacity: { memory: "16Gi", "hugepages-1Gi": "2Gi", "hugepages-2Mi": "0" },
    reservations: none,
    want: { memory: "14Gi", "hugepages-1Gi": "2Gi", "hugepages-2Mi": "0" },
  },
  {
    name: "a reservation larger than capacity clamps at zero",
    capacity: { cpu: "1" },
    reservations: { systemReserved: { cpu: "2" }, kubeReserved: {}, evictionHard: {} },
    want: { cpu: "0" },
  },
  {
    name: "extended resources pass through unreserved",
    capacity: { cpu: "8", "nvidia.com/gpu": "4" },
    reservations: { systemReserved: { cpu: "1" }, kubeReserved: {}, evictionHard: {} },
    want: { cpu: "7", "nvidia.com/gpu": "4" },
  },
];

for (const c of cases) {
  test(`computeAllocatable: ${c.name}`, () => {
    assert.deepEqual(computeAllocatable(c.capacity, c.reservations), c.want);
  });
}

const reservationCases: readonly {
  name: string;
  capacity: ResourceList;
  reservations: Reservations;
  want: string[];
}[] = [
  {
    name: "a reservation within capacity is fine",
    capacity: { cpu: "4" },
    reservations: { systemReserved: { cpu: "1" }, kubeReserved: { cpu: "1" }, evictionHard: {} },
    want: [],
  },
  {
    name: "system plus kube over capacity is named with upstream's message",
    capacity: { cpu: "4", memory: "1Gi" },
    reservations: { systemReserved: { cpu: "3" }, kubeReserved: { cpu: "2" }, evictionHard: {} },
    want: [
      'Resource "cpu" has a reservation of 5 but capacity of 4. Expected capacity >= reservation.',
    ],
  },
  {
    name: "a reservation of a resource the node lacks is over a zero capacity",
    capacity: { cpu: "4" },
    reservations: { systemReserved: { memory: "1Gi" }, kubeReserved: {}, evictionHard: {} },
    want: [
      'Resource "memory" has a reservation of 1Gi but capacity of 0. Expected capacity >= reservation.',
    ],
  },
];

for (const c of reservationCases) {
  test(`validateReservation: ${c.name}`, () => {
    assert.deepEqual(validateReservation(c.capacity, c.reservations), c.want);
  });
}
