import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeProtobufObject } from "./decode.ts";
import { envelope, int, msg, str } from "./testdata/encoder.ts";

// Bodies a client-go 1.32+ typed client would send (field numbers from networking/v1
// generated.proto), decoded to the JSON Go's encoding/json prints for the same objects.

test("decodeProtobufObject: an IngressClass with a parameters reference", () => {
  const body = envelope(
    "networking.k8s.io/v1",
    "IngressClass",
    msg(
      1,
      str(1, "nginx"),
      msg(12, str(1, "ingressclass.kubernetes.io/is-default-class"), str(2, "true")),
    ),
  );
  assert.deepEqual(decodeProtobufObject(body), {
    kind: "IngressClass",
    apiVersion: "networking.k8s.io/v1",
    metadata: {
      name: "nginx",
      creationTimestamp: null,
      annotations: { "ingressclass.kubernetes.io/is-default-class": "true" },
    },
    spec: {},
  });
  const full = envelope(
    "networking.k8s.io/v1",
    "IngressClass",
    new Uint8Array([
      ...msg(1, str(1, "nginx")),
      ...msg(
        2,
        str(1, "k8s.io/ingress-nginx"),
        msg(2, str(1, "k8s.example.com"), str(2, "IngressParameters"), str(3, "cfg")),
      ),
    ]),
  );
  assert.deepEqual(decodeProtobufObject(full), {
    kind: "IngressClass",
    apiVersion: "networking.k8s.io/v1",
    metadata: { name: "nginx", creationTimestamp: null },
    spec: {
      controller: "k8s.io/ingress-nginx",
      // `scope` has no omitempty: an absent pointer prints null, which defaulting fills.
      parameters: {
        apiGroup: "k8s.example.com",
        kind: "IngressParameters",
        name: "cfg",
        scope: null,
      },
    },
  });
});

test("decodeProtobufObject: a NetworkPolicy with ports, peers and an ipBlock", () => {
  const port = (n: number) => msg(2, int(1, 0), int(2, n));
  const body = envelope(
    "networking.k8s.io/v1",
    "NetworkPolicy",
    new Uint8Array([
      ...msg(1, str(1, "web"), str(3, "default")),
      ...msg(
        2,
        msg(1, msg(1, str(1, "app"), str(2, "web"))),
        msg(
          2,
          msg(1, str(1, "TCP"), port(80)),
          msg(1, msg(2, int(1, 1), str(3, "http"))),
          msg(2, msg(3, str(1, "10.0.0.0/8"), str(2, "10.1.0.0/16"))),
          msg(2, msg(2)),
        ),
        msg(3, msg(1, str(1, "UDP"), port(53), int(3, 60))),
        str(4, "Ingress"),
        str(4, "Egress"),
      ),
    ]),
  );
  assert.deepEqual(decodeProtobufObject(body), {
    kind: "NetworkPolicy",
    apiVersion: "networking.k8s.io/v1",
    metadata: { name: "web", namespace: "default", creationTimestamp: null },
    spec: {
      podSelector: { matchLabels: { app: "web" } },
      ingress: [
        {
          ports: [{ protocol: "TCP", port: 80 }, { port: "http" }],
          from: [
            { ipBlock: { cidr: "10.0.0.0/8", except: ["10.1.0.0/16"] } },
            { namespaceSelector: {} },
          ],
        },
      ],
      egress: [{ ports: [{ protocol: "UDP", port: 53, endPort: 60 }] }],
      policyTypes: ["Ingress", "Egress"],
    },
  });
});

test("decodeProtobufObject: a NetworkPolicy without a spec still prints podSelector", () => {
  const body = envelope("networking.k8s.io/v1", "NetworkPolicy", msg(1, str(1, "deny")));
  assert.deepEqual(decodeProtobufObject(body), {
    kind: "NetworkPolicy",
    apiVersion: "networking.k8s.io/v1",
    metadata: { name: "deny", creationTimestamp: null },
    spec: { podSelector: {} },
  });
});
