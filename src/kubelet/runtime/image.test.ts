import assert from "node:assert/strict";
import test from "node:test";
import { containerIdOf, imageIdOf, normalizeImage } from "./image.ts";

const cases: readonly { image: string; want: string }[] = [
  { image: "nginx", want: "docker.io/library/nginx:latest" },
  { image: "busybox:1.36", want: "docker.io/library/busybox:1.36" },
  { image: "bitnami/redis", want: "docker.io/bitnami/redis:latest" },
  { image: "registry.k8s.io/pause:3.10", want: "registry.k8s.io/pause:3.10" },
  { image: "localhost:5000/app", want: "localhost:5000/app:latest" },
  {
    image: "quay.io/x/y@sha256:abc",
    want: "quay.io/x/y@sha256:abc",
  },
];

for (const c of cases) {
  test(`normalizeImage: ${c.image}`, () => {
    assert.equal(normalizeImage(c.image), c.want);
  });
}

test("imageIdOf: a digest reference is its own id; others get a stable derived digest", () => {
  assert.equal(imageIdOf("quay.io/x/y@sha256:abc"), "quay.io/x/y@sha256:abc");
  assert.match(imageIdOf("nginx:1.27"), /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
  assert.equal(imageIdOf("nginx:1.27"), imageIdOf("docker.io/library/nginx:1.27"));
});

test("containerIdOf: differs per restart and is stable", () => {
  assert.notEqual(containerIdOf("u", "app", 0), containerIdOf("u", "app", 1));
  assert.equal(containerIdOf("u", "app", 0), containerIdOf("u", "app", 0));
  assert.match(containerIdOf("u", "app", 0), /^containerd:\/\/[0-9a-f]{64}$/);
});
