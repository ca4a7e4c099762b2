# Production image: `denpex serve` (the Slack bot, Socket Mode) by default; any other command works too, e.g.
#   docker run --rm -v "$PWD:/work:ro" denpex denpex diagnose /work/train.log
# HTTP mode (Events API behind a load balancer):
#   docker run -d -e SLACK_BOT_TOKEN -e SLACK_SIGNING_SECRET -p 3000:3000 denpex \
#     sh -c 'exec denpex serve --http --port "$DENPEX_PORT"'
# Configuration: mount a directory holding your denpex.toml (and any extra signature directories it names)
# at /etc/denpex, e.g. -v "$PWD/denpex:/etc/denpex:ro"; without one the defaults apply.
# Secrets come from the environment (SLACK_BOT_TOKEN, SLACK_APP_TOKEN, SLACK_SIGNING_SECRET), or from files as
# Docker and Kubernetes mount secrets: SLACK_BOT_TOKEN_FILE=/run/secrets/slack_bot_token (likewise
# SLACK_APP_TOKEN_FILE, SLACK_SIGNING_SECRET_FILE, DENPEX_DB_FILE); setting both forms of one is refused.
# `--job` (and /denpex diagnose <job id>) in a container needs to reach the scheduler. Slurm: slurmrestd (a
# [clusters.*] restd_url, or restd_socket with the socket mounted, and the JWT in the variable restd_token_env
# names), or else the Slurm client: this image has none, so install Slurm's client packages in an image built
# FROM this one and mount /etc/slurm and munge's socket (-v /etc/slurm:/etc/slurm:ro -v /run/munge:/run/munge).
# Either way the job's log files must be readable at the paths Slurm reports (mount the shared filesystem at the
# same place). Kubernetes: with api_url and token_env left empty the pod's own service account is used
# (/var/run/secrets/kubernetes.io/serviceaccount), which needs get/list on pods, pods/log, events and the job
# kinds. Ray: the dashboard's address (its Jobs API).
#
# The base image is pinned by digest. This digest of python:3.11-slim was taken from public Dockerfiles that pin
# it; it could not be checked against Docker Hub where it was written (no registry reachable). Refresh it with
#   docker buildx imagetools inspect python:3.11-slim     (the index "Digest:", valid for every platform)
# and test a new one without editing this file: docker build --build-arg PYTHON_IMAGE=python:3.11-slim@sha256:... .
ARG PYTHON_IMAGE=python:3.11-slim@sha256:9c900dea9e8fb7e16277c179b555cc72d29a352dbc33cff48ad5a0412fd5bfc7
FROM ${PYTHON_IMAGE}

# the port of /healthz (and of /slack/events in HTTP mode); a build arg so that EXPOSE follows it
ARG DENPEX_PORT=3000
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DENPEX_PORT=${DENPEX_PORT} DENPEX_CONFIG=/etc/denpex/denpex.toml \
    DENPEX_DB=/var/lib/denpex/denpex.db DENPEX_CACHE_DIR=/var/lib/denpex/cache
WORKDIR /app

# every package, setuptools and wheel included, comes from the lock with its hashes checked
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock

COPY pyproject.toml README.md ./
COPY signatures ./signatures
COPY bot ./bot
COPY config ./config
# --no-build-isolation: build with the locked setuptools instead of fetching an unpinned one
RUN pip install --no-deps --no-build-isolation . \
    && rm -rf build ./*.egg-info \
    && groupadd --gid 10001 denpex \
    && useradd --create-home --uid 10001 --gid 10001 denpex \
    && install -d -o denpex -g denpex /var/lib/denpex \
    && install -d /etc/denpex \
    && echo "# the defaults; mount a directory holding your denpex.toml at /etc/denpex" > /etc/denpex/denpex.toml

USER 10001:10001
WORKDIR /var/lib/denpex
EXPOSE ${DENPEX_PORT}
# HTTP mode answers /healthz on --port, Socket Mode on --health-port: both are $DENPEX_PORT here
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; url = 'http://127.0.0.1:%s/healthz' % os.environ['DENPEX_PORT']; sys.exit(urllib.request.urlopen(url, timeout=4).status != 200)"]
CMD ["/bin/sh", "-c", "exec denpex serve --health-port \"$DENPEX_PORT\""]
