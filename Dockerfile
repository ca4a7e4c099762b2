# Production image: `denpex serve` (the Slack bot) by default; any other denpex command works too,
# e.g. `docker run --rm -v "$PWD:/work:ro" denpex diagnose /work/train.log`.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DENPEX_DB=/var/lib/denpex/denpex.db DENPEX_CACHE_DIR=/var/lib/denpex/cache
WORKDIR /app

COPY requirements.lock ./
RUN pip install -r requirements.lock

COPY pyproject.toml README.md ./
COPY signatures ./signatures
COPY bot ./bot
COPY config ./config
RUN pip install --no-deps . \
    && useradd --create-home --uid 10001 denpex \
    && mkdir -p /var/lib/denpex && chown denpex /var/lib/denpex

USER denpex
WORKDIR /var/lib/denpex
EXPOSE 3000
# HTTP mode answers /healthz on its port; Socket Mode answers it on --health-port.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD python -c "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:3000/healthz', timeout=4).status != 200)"
ENTRYPOINT ["denpex"]
CMD ["serve", "--health-port", "3000"]
