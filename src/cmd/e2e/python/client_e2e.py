"""Drives gantry through Debian's python3-kubernetes: typed CRUD, selectors, pagination,
watch, patches, conflicts, deletion options and a Deployment's scale.

Usage: client_e2e.py KUBECONFIG NAMESPACE
"""

import threading

from common import api_failure, names, run
from kubernetes import client, config, watch


# No scheduler serves this name: a pod asking for it is never bound, so no kubelet runs it and
# nothing but the script writes it.
UNSCHEDULED = "gantry-e2e-unscheduled"


def pod(name, labels, scheduler_name=None):
    spec = {"containers": [{"name": "app", "image": "registry.k8s.io/pause:3.10"}]}
    if scheduler_name is not None:
        spec["schedulerName"] = scheduler_name
    return {"metadata": {"name": name, "labels": labels}, "spec": spec}


def deployment(name):
    return {
        "metadata": {"name": name},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "app", "image": "registry.k8s.io/pause:3.10"}]},
            },
        },
    }


def main(argv, steps):
    kubeconfig, namespace = argv
    config.load_kube_config(config_file=kubeconfig)
    core = client.CoreV1Api()
    apps = client.AppsV1Api()

    def create_namespace():
        created = core.create_namespace({"metadata": {"name": namespace}})
        return {"name": created.metadata.name, "phase": created.status.phase}

    steps.run("namespace", create_namespace)

    def create_objects():
        for name, tier in [("web-1", "web"), ("web-2", "web"), ("web-3", "web"), ("db-1", "db")]:
            core.create_namespaced_pod(namespace, pod(name, {"tier": tier}))
        core.create_namespaced_config_map(
            namespace,
            {"metadata": {"name": "settings", "labels": {"app": "demo"}}, "data": {"mode": "fast"}},
        )
        return core.read_namespaced_config_map("settings", namespace).data

    steps.run("configmap", create_objects)
    steps.run(
        "configmaps_by_label",
        lambda: names(core.list_namespaced_config_map(namespace, label_selector="app=demo").items),
    )
    steps.run(
        "label_selector",
        lambda: names(core.list_namespaced_pod(namespace, label_selector="tier=web").items),
    )
    steps.run(
        "set_selector",
        lambda: names(core.list_namespaced_pod(namespace, label_selector="tier in (db,cache)").items),
    )
    steps.run(
        "field_selector",
        lambda: names(core.list_namespaced_pod(namespace, field_selector="metadata.name=web-2").items),
    )

    def paginate():
        pages = []
        token = None
        while len(pages) < 10:
            kwargs = {"limit": 3} if token is None else {"limit": 3, "_continue": token}
            page = core.list_namespaced_pod(namespace, **kwargs)
            pages.append(names(page.items))
            token = page.metadata._continue
            if not token:
                break
        return pages

    steps.run("pages", paginate)

    def watch_events():
        # The client sends watch=True; the stream starts at the list's resourceVersion in a
        # thread while this one creates, patches and deletes a pod. The pod is unscheduled, so
        # the only events are those of the script's own three writes (a scheduled pod would
        # also be MODIFIED by its binding and its kubelet's status updates).
        start = core.list_namespaced_pod(namespace).metadata.resource_version
        events = []
        failures = []
        stream = watch.Watch()

        def consume():
            try:
                for event in stream.stream(
                    core.list_namespaced_pod,
                    namespace,
                    resource_version=start,
                    timeout_seconds=15,
                ):
                    if event["object"].metadata.name != "watched":
                        continue
                    events.append(event["type"])
                    if event["type"] == "DELETED":
                        stream.stop()
            except Exception as error:  # noqa: BLE001 - handed to the main thread
                failures.append(error)

        watcher = threading.Thread(target=consume, daemon=True)
        watcher.start()
        core.create_namespaced_pod(namespace, pod("watched", {"tier": "watch"}, UNSCHEDULED))
        core.patch_namespaced_pod("watched", namespace, {"metadata": {"labels": {"seen": "yes"}}})
        core.delete_namespaced_pod("watched", namespace, grace_period_seconds=0)
        watcher.join(20)
        if failures:
            raise failures[0]
        return events

    steps.run("watch", watch_events)

    def strategic_patch():
        # A dict body goes out as a strategic merge patch: containers merge by name.
        patched = core.patch_namespaced_pod(
            "web-1",
            namespace,
            {
                "metadata": {"labels": {"patched": "yes"}},
                "spec": {"containers": [{"name": "app", "image": "registry.k8s.io/pause:3.9"}]},
            },
        )
        return {
            "labels": patched.metadata.labels,
            "containers": [[c.name, c.image] for c in patched.spec.containers],
        }

    steps.run("strategic_patch", strategic_patch)
    # A list body goes out as a JSON patch.
    steps.run(
        "json_patch_labels",
        lambda: core.patch_namespaced_pod(
            "web-1", namespace, [{"op": "remove", "path": "/metadata/labels/patched"}]
        ).metadata.labels,
    )

    settings = core.read_namespaced_config_map("settings", namespace)
    stale = settings.metadata.resource_version

    def replace():
        # The object as read, sent back: its creationTimestamp is re-serialised as
        # "...+00:00", which kube-apiserver ignores on update.
        settings.data = {"mode": "slow"}
        return core.replace_namespaced_config_map("settings", namespace, settings).data

    steps.run("replaced", replace)

    def stale_replace():
        fresh = core.read_namespaced_config_map("settings", namespace)
        if fresh.metadata.resource_version == stale:
            raise AssertionError("the config map was not replaced, so no version is stale")
        settings.data = {"mode": "stale"}
        settings.metadata.resource_version = stale
        return api_failure(core.replace_namespaced_config_map, "settings", namespace, settings)

    steps.run("stale_replace", stale_replace)
    steps.run(
        "already_exists",
        lambda: api_failure(
            core.create_namespaced_config_map, namespace, {"metadata": {"name": "settings"}}
        ),
    )
    steps.run("not_found", lambda: api_failure(core.read_namespaced_pod, "nope", namespace))
    steps.run(
        "bad_propagation",
        lambda: api_failure(
            core.delete_namespaced_pod, "web-3", namespace, propagation_policy="Sideways"
        ),
    )

    def delete_background():
        core.delete_namespaced_pod(
            "web-3",
            namespace,
            body=client.V1DeleteOptions(propagation_policy="Background", grace_period_seconds=0),
        )
        return names(core.list_namespaced_pod(namespace, label_selector="tier=web").items)

    steps.run("after_delete", delete_background)

    def scale_deployment():
        apps.create_namespaced_deployment(namespace, deployment("web"))
        before = apps.read_namespaced_deployment_scale("web", namespace).spec.replicas
        apps.patch_namespaced_deployment_scale("web", namespace, {"spec": {"replicas": 2}})
        return [before, apps.read_namespaced_deployment("web", namespace).spec.replicas]

    steps.run("deployment_scale", scale_deployment)

    def delete_deployment():
        apps.delete_namespaced_deployment("web", namespace, propagation_policy="Background")
        return api_failure(apps.read_namespaced_deployment, "web", namespace)["status"]

    steps.run("deployment_gone", delete_deployment)


if __name__ == "__main__":
    run(main)
