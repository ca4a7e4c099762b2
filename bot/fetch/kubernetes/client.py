"""The API client: where the API server is, the bearer token, the CA, and the advice its errors carry."""

from __future__ import annotations

import os
import ssl
from pathlib import Path

import httpx

from bot.config import KubernetesCluster
from bot.fetch.base import Budget
from bot.fetch.errors import NotConfigured
from bot.fetch.http import JsonApi, bearer

IN_CLUSTER_URL = "https://kubernetes.default.svc"
SERVICE_ACCOUNT_DIR = Path("/var/run/secrets/kubernetes.io/serviceaccount")


def open_api(
    client: httpx.Client, cluster: KubernetesCluster, name: str, namespace: str, token: str | None, budget: Budget
) -> JsonApi:
    """The API server of cluster `name`, for a fetch in `namespace`."""
    return JsonApi(
        client,
        cluster.api_url or IN_CLUSTER_URL,
        budget,
        service="the Kubernetes API server",
        cluster=name,
        headers=bearer(token),
        advice={
            401: "the token is expired, revoked or for another cluster; refresh it",
            403: "RBAC: the bot's service account needs get/list on pods, pods/log, events in namespace "
            f"{namespace!r} (a Role and RoleBinding there)",
            404: f"does namespace {namespace!r} exist on cluster {name!r}?",
            "timeout": "the API server or the node's kubelet is slow.",
        },
    )


def new_client(cluster: KubernetesCluster, name: str) -> httpx.Client:
    return httpx.Client(verify=tls_verify(cluster, name), follow_redirects=False)


def read_token(cluster: KubernetesCluster, name: str, injected: bool) -> str | None:
    if cluster.token_env:
        token = os.environ.get(cluster.token_env, "").strip()
        if not token:
            raise NotConfigured(
                f"cluster {name!r}: the environment variable {cluster.token_env} "
                "(token_env) that should hold the Kubernetes API token is not set"
            )
        return token
    try:
        return (SERVICE_ACCOUNT_DIR / "token").read_text().strip() or None
    except OSError:
        if cluster.api_url is None and not injected:
            raise NotConfigured(
                f"cluster {name!r}: no api_url is configured and the bot is not "
                "running in a Kubernetes pod (no service account token at "
                f"{SERVICE_ACCOUNT_DIR}); set api_url and token_env"
            ) from None
        return None


def tls_verify(cluster: KubernetesCluster, name: str):
    if not cluster.verify_tls:
        return False
    ca = cluster.ca_file
    if ca is None and cluster.api_url is None and (SERVICE_ACCOUNT_DIR / "ca.crt").is_file():
        ca = str(SERVICE_ACCOUNT_DIR / "ca.crt")
    if ca is None:
        return True
    try:
        return ssl.create_default_context(cafile=ca)
    except (OSError, ssl.SSLError) as exc:
        raise NotConfigured(f"cluster {name!r}: cannot load the CA bundle {ca} (ca_file): {exc}") from None
