# The host over streamable HTTP with Debian's Chromium, as a non-root user.
#
#   docker build -t playwright-tool-host .
#   docker run --rm -p 127.0.0.1:8931:8931 -e PLAYWRIGHT_TOOL_HOST_TOKEN=... playwright-tool-host
#
# MCP at http://127.0.0.1:8931/mcp (header `Authorization: Bearer <token>`), GET /healthz.
# The container binds 0.0.0.0 and so needs a token: without PLAYWRIGHT_TOOL_HOST_TOKEN (or
# `--token-file` pointing at a mounted secret) it exits 2 at once and says so. Arguments after
# the image name are `serve` options (`--toolset all`, `--max-sessions 8`, ...).
FROM python:3.11-slim-bookworm

# chromium: the browser the host launches (/usr/bin/chromium, its default --executable-path);
# tini: PID 1, which forwards signals and reaps Chromium's orphaned children.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        chromium fonts-liberation tini \
    && rm -rf /var/lib/apt/lists/*

# The project as `pip install .` sees it: the generator, its templates, the host and the
# committed generator output (generated/, whose python/playwright_tools is the package the host
# serves). The descriptors stay on disk too, for `--generated`.
WORKDIR /src
COPY pyproject.toml README.md ./
COPY generator generator
COPY templates templates
COPY host host
COPY generated generated
RUN pip install --no-cache-dir --disable-pip-version-check --root-user-action=ignore . \
    && mkdir -p /usr/local/share/playwright-tool-host \
    && cp -r generated /usr/local/share/playwright-tool-host/generated \
    && rm -rf /src

RUN useradd --create-home --uid 10001 --user-group mcp
USER mcp
WORKDIR /home/mcp

EXPOSE 8931
HEALTHCHECK --interval=30s --timeout=15s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8931/healthz', timeout=10).status != 200)"]
ENTRYPOINT ["tini", "--", "playwright-tool-host", "serve", "--http", "0.0.0.0:8931", \
            "--generated", "/usr/local/share/playwright-tool-host/generated"]
CMD []
