/** The pod the benchmark writes: small and realistic, like a Deployment's replica. */
export function podBody(name: string, labels: Readonly<Record<string, string>> = {}): object {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      labels: { app: "bench", tier: "web", ...labels },
      annotations: { "bench.gantry.dev/owner": "bench" },
    },
    spec: {
      containers: [
        {
          name: "web",
          image: "registry.k8s.io/nginx-slim:0.27",
          ports: [{ name: "http", containerPort: 8080, protocol: "TCP" }],
          env: [{ name: "MODE", value: "production" }],
          resources: {
            requests: { cpu: "100m", memory: "64Mi" },
            limits: { cpu: "500m", memory: "128Mi" },
          },
        },
      ],
      restartPolicy: "Always",
      terminationGracePeriodSeconds: 30,
    },
  };
}
