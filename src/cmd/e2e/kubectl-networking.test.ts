/**
 * networking.k8s.io/v1 with real kubectl against `gantry up`: `kubectl create ingress` (protobuf
 * on 1.32+), upstream's columns for ingresses, ingressclasses and networkpolicies, the
 * DefaultIngressClass admission plugin, upstream's 422 for an invalid Ingress, and discovery,
 * on kubectl 1.27, 1.30 and 1.33 (one gantry, one namespace and one IngressClass per version).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type GantryProcess,
  type KubectlResult,
  kubectl,
  kubectlOk as ok,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

let gantry: GantryProcess;
before(async () => {
  gantry = await startGantry();
});
after(async () => {
  await gantry[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

for (const version of ["1.27", "1.30", "1.33"]) {
  describe(`kubectl ${version}: Ingress, IngressClass and NetworkPolicy`, () => {
    const suffix = version.replace(".", "-");
    const ns = `ing-${suffix}`;
    const className = `default-${suffix}`;
    const run = (args: string[], input?: string): Promise<KubectlResult> =>
      kubectl(gantry, version, args, input === undefined ? {} : { input });

    test("api-resources lists ingresses (ing), ingressclasses and networkpolicies (netpol)", async () => {
      const resources = ok(await run(["api-resources"]), "api-resources");
      assert.match(resources, /^ingressclasses\s+networking\.k8s\.io\/v1\s+false\s+IngressClass$/m);
      assert.match(resources, /^ingresses\s+ing\s+networking\.k8s\.io\/v1\s+true\s+Ingress$/m);
      assert.match(
        resources,
        /^networkpolicies\s+netpol\s+networking\.k8s\.io\/v1\s+true\s+NetworkPolicy$/m,
      );
      assert.match(ok(await run(["api-versions"]), "api-versions"), /^networking\.k8s\.io\/v1$/m);
    });

    test("explain reads the networking.k8s.io schemas", async () => {
      assert.match(
        ok(await run(["explain", "ingress.spec.rules.http.paths.pathType"]), "explain ingress"),
        /pathType determines the interpretation of the path matching/,
      );
      assert.match(
        ok(await run(["explain", "networkpolicies.spec.policyTypes"]), "explain networkpolicies"),
        /policyTypes is a list of rule types that the NetworkPolicy relates to/,
      );
    });

    test("kubectl create ingress, then get ing prints upstream's columns", async () => {
      ok(await run(["create", "namespace", ns]), "create namespace");
      assert.match(
        ok(
          await run(["-n", ns, "create", "ingress", "web", "--rule=foo.com/bar=svc1:8080"]),
          "create ingress",
        ),
        /^ingress\.networking\.k8s\.io\/web created$/m,
      );
      const out = ok(await run(["-n", ns, "get", "ing"]), "get ing");
      assert.match(out, /^NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE$/m);
      assert.match(out, /^web\s+<none>\s+foo\.com\s+80\s+\S+$/m);
      const path = ok(
        await run([
          "-n",
          ns,
          "get",
          "ingress",
          "web",
          "-o",
          "jsonpath={.spec.rules[0].http.paths[0].pathType} {.spec.rules[0].http.paths[0].path} {.spec.rules[0].http.paths[0].backend.service.name}:{.spec.rules[0].http.paths[0].backend.service.port.number}",
        ]),
        "get ingress -o jsonpath",
      );
      assert.equal(path, "Exact /bar svc1:8080");
      // describe reads the rules (and looks up the backend Service, which does not exist).
      const described = ok(await run(["-n", ns, "describe", "ingress", "web"]), "describe ingress");
      assert.match(described, /^Name:\s+web$/m);
      assert.match(described, /^\s+foo\.com\s*$/m);
      assert.match(described, /^\s+\/bar\s+svc1:8080/m);
    });

    test("apply a NetworkPolicy: defaults, and get netpol prints NAME POD-SELECTOR AGE", async () => {
      const policy = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: web-policy
  namespace: ${ns}
spec:
  podSelector:
    matchLabels:
      app: web
  ingress:
  - from:
    - ipBlock:
        cidr: 10.0.0.0/8
        except: [10.1.0.0/16]
    ports:
    - port: 80
  egress:
  - ports:
    - port: 53
      protocol: UDP
`;
      assert.match(
        ok(await run(["apply", "-f", "-"], policy), "apply networkpolicy"),
        /networkpolicy\.networking\.k8s\.io\/web-policy created/,
      );
      const out = ok(await run(["-n", ns, "get", "netpol"]), "get netpol");
      assert.match(out, /^NAME\s+POD-SELECTOR\s+AGE$/m);
      assert.match(out, /^web-policy\s+app=web\s+\S+$/m);
      assert.equal(
        ok(
          await run([
            "-n",
            ns,
            "get",
            "networkpolicy",
            "web-policy",
            "-o",
            "jsonpath={.spec.policyTypes} {.spec.ingress[0].ports[0].protocol}",
          ]),
          "get networkpolicy -o jsonpath",
        ),
        '["Ingress","Egress"] TCP',
      );
    });

    test("server-side apply of a default-deny NetworkPolicy", async () => {
      const denyAll = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: deny-all
  namespace: ${ns}
spec:
  podSelector: {}
  policyTypes: [Ingress, Egress]
`;
      assert.match(
        ok(await run(["apply", "--server-side", "-f", "-"], denyAll), "apply --server-side"),
        /networkpolicy\.networking\.k8s\.io\/deny-all serverside-applied/,
      );
      const out = ok(await run(["-n", ns, "get", "netpol", "deny-all"]), "get netpol deny-all");
      assert.match(out, /^deny-all\s+<none>\s+\S+$/m);
    });

    test("an IngressClass marked default gives a class-less Ingress its name", async () => {
      const ingressClass = `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: ${className}
  annotations:
    ingressclass.kubernetes.io/is-default-class: "true"
spec:
  controller: example.com/ingress-controller
  parameters:
    apiGroup: k8s.example.com
    kind: IngressParameters
    name: external-lb
`;
      const ingress = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: defaulted
  namespace: ${ns}
spec:
  tls:
  - hosts: [app.example.com]
    secretName: app-tls
  rules:
  - host: app.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: app
            port:
              name: http
`;
      ok(await run(["apply", "-f", "-"], ingressClass), "apply ingressclass");
      const classes = ok(await run(["get", "ingressclass", className]), "get ingressclass");
      assert.match(classes, /^NAME\s+CONTROLLER\s+PARAMETERS\s+AGE$/m);
      assert.match(
        classes,
        new RegExp(
          `^${className}\\s+example\\.com/ingress-controller\\s+IngressParameters\\.k8s\\.example\\.com/external-lb\\s+\\S+$`,
          "m",
        ),
      );
      ok(await run(["apply", "-f", "-"], ingress), "apply ingress");
      const out = ok(await run(["-n", ns, "get", "ing", "defaulted"]), "get ing defaulted");
      assert.match(
        out,
        new RegExp(`^defaulted\\s+${className}\\s+app\\.example\\.com\\s+80, 443\\s+\\S+$`, "m"),
      );
      // The class's controller is immutable.
      const changed = await run(
        ["apply", "-f", "-"],
        ingressClass.replace("example.com/ingress-controller", "example.com/other"),
      );
      assert.notEqual(changed.code, 0, "changing spec.controller is refused");
      assert.match(
        changed.stderr,
        /spec\.controller: Invalid value: "example\.com\/other": field is immutable/,
      );
      ok(await run(["delete", "ingressclass", className]), "delete ingressclass");
    });

    test("an invalid Ingress gets upstream's 422 message", async () => {
      const bad = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: bad
  namespace: ${ns}
spec:
  rules:
  - host: 10.0.0.1
    http:
      paths:
      - path: bar
        pathType: Exact
        backend:
          service:
            name: svc1
            port:
              number: 8080
`;
      const result = await run(["create", "-f", "-"], bad);
      assert.notEqual(result.code, 0, "the invalid Ingress is refused");
      // kubectl renders the Status's causes one per line.
      assert.equal(
        result.stderr.trim(),
        [
          'The Ingress "bad" is invalid: ',
          '* spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
          '* spec.rules[0].http.paths[0].path: Invalid value: "bar": must be an absolute path',
        ].join("\n"),
      );
      const mismatch = await run(
        ["-n", ns, "create", "ingress", "mismatch", "--class=nginx", "--rule=foo.com/=svc1:80"],
        undefined,
      );
      assert.equal(mismatch.code, 0, `create ingress --class:\n${mismatch.stderr}`);
      const annotated = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: conflict
  namespace: ${ns}
  annotations:
    kubernetes.io/ingress.class: traefik
spec:
  ingressClassName: nginx
  defaultBackend:
    service:
      name: svc1
      port:
        number: 80
`;
      const conflict = await run(["create", "-f", "-"], annotated);
      assert.notEqual(conflict.code, 0, "the class annotation conflict is refused");
      assert.match(
        conflict.stderr,
        /The Ingress "conflict" is invalid: annotations\.kubernetes\.io\/ingress\.class: Invalid value: "traefik": must match `ingressClassName` when both are specified/,
      );
    });
  });
}
