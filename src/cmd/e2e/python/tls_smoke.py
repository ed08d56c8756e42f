"""The Python client over https with the CA and client certificate of `gantry up --tls`'s kubeconfig.

Usage: tls_smoke.py KUBECONFIG
"""

from common import api_failure, names, run
from kubernetes import client, config


def main(argv, steps):
    (kubeconfig,) = argv
    config.load_kube_config(config_file=kubeconfig)
    core = client.CoreV1Api()

    def settings():
        loaded = client.Configuration.get_default_copy()
        return {
            "host": loaded.host,
            "verify_ssl": loaded.verify_ssl,
            "has_ca": bool(loaded.ssl_ca_cert),
            "has_client_certificate": bool(loaded.cert_file and loaded.key_file),
        }

    steps.run("configuration", settings)
    steps.run("namespaces", lambda: names(core.list_namespace().items))

    def create_and_read():
        core.create_namespaced_config_map(
            "default", {"metadata": {"name": "over-tls"}, "data": {"secure": "yes"}}
        )
        return core.read_namespaced_config_map("over-tls", "default").data

    steps.run("configmap", create_and_read)

    def wrong_token():
        wrong = client.Configuration.get_default_copy()
        # Without the client certificate: the API server checks a certificate before any token.
        wrong.cert_file = None
        wrong.key_file = None
        wrong.api_key = {"authorization": "Bearer not-the-token"}
        return api_failure(client.CoreV1Api(client.ApiClient(wrong)).list_namespace)

    steps.run("wrong_token", wrong_token)


if __name__ == "__main__":
    run(main)
