# syntax=docker/dockerfile:1
# Snip: the server as shipped (dist/), on Node 24 LTS. Build: docker build -t snip .  Run: see compose.yaml and
# docs/deployment.md. Written with care, but no container engine runs where Snip is developed: CI does not build it.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 builds from source when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY web ./web
COPY client ./client
COPY assets ./assets
# npm ci runs `prepare`, which builds dist/ (server) and dist/app (dashboard).
RUN npm ci && npm prune --omit=dev

FROM node:24-bookworm-slim
# tini is PID 1 and Snip its direct child: SIGTERM reaches Snip, which drains, and zombies are reaped.
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data && chown node:node /data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/assets ./assets
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", "dist/main.js"]
