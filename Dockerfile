# Sitewright's image: built with the dev dependencies, run with the production ones only, as a
# user without privileges, on a read-only root with one writable volume (/data). Everything is
# configured when it runs (PUBLIC_URL and the rest: docs/configuration.md); nothing is baked in.
# docs/operations.md, Deploying with the image, says how to run it.
#
# BASE_IMAGE: Node 24 LTS on Debian bookworm; test/container/ builds a local equivalent.
ARG BASE_IMAGE=node:24-bookworm-slim

FROM ${BASE_IMAGE} AS build
# better-sqlite3 compiles here when no prebuilt binary can be downloaded, against the image's own
# Node headers (/usr/local/include/node).
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${BASE_IMAGE}
# tini: PID 1 that hands SIGTERM to Node (a graceful stop) and reaps; the PostgreSQL client tools
# for `sitewright backup` and `restore` on PostgreSQL (pg_dump and pg_restore of bookworm: 15).
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini postgresql-client \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin sitewright \
  && mkdir -p /data/backups \
  && chown -R sitewright:sitewright /data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
# Pages' templates and assets are read from src/ at run time (src/ui/dir.ts).
COPY --from=build /app/src ./src
RUN ln -s /app/bin/sitewright.js /usr/local/bin/sitewright
ENV NODE_ENV=production \
  DATA_DIR=/data \
  HOST=0.0.0.0 \
  PORT=3000
USER sitewright
VOLUME ["/data"]
EXPOSE 3000
STOPSIGNAL SIGTERM
# Ready, not merely alive: the database answers and its migrations are this version's. Slim images
# have no curl: Node asks.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/bin/sitewright.js"]
CMD ["start"]
