# Production image: the denpex CLI (the Slack bot joins it in a later release).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

COPY requirements.lock ./
RUN pip install -r requirements.lock

COPY pyproject.toml README.md ./
COPY signatures ./signatures
COPY bot ./bot
RUN pip install --no-deps . \
    && useradd --create-home --uid 10001 denpex

USER denpex
WORKDIR /work
ENTRYPOINT ["denpex"]
CMD ["--help"]
