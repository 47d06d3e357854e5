# Plant Store as a container: one Node process that applies migrations, then serves.
# Build: docker build -t plant-store .
# Run:   docker run -p 3000:3000 -v plant-data:/app/data plant-store                     (SQLite)
#        docker run -p 3000:3000 -e DATABASE_URL=postgresql://... -e AUTH_SECRET=... plant-store
# Operator commands: docker exec <container> node cli/token.mjs create --name NAME  (see docs/operations.md, "Docker")
# Not built in this project's CI (its machines cannot pull base images); scripts/container-smoke.sh
# builds it and checks it by hand.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
# better-sqlite3 compiles when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json prisma.config.ts ./
COPY scripts/prisma-generate.mjs scripts/
COPY prisma ./prisma
RUN npm install --no-audit --no-fund

FROM deps AS build
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
RUN npm run build

FROM node:20-bookworm-slim AS runtime
# tini is PID 1: it passes signals on to node and reaps orphaned processes, which node does not.
# apt-get clean drops apt's package caches (75 MB in /var/cache/apt where the base image keeps them).
RUN apt-get update && apt-get install -y --no-install-recommends tini && apt-get clean && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0
# What runs, and nothing else: .next/standalone is the server (server.js with the packages Next's
# tracer found it needs), the start-up steps (start.mjs), the operator commands (cli/*.mjs) and the
# migration engine, all bundled by npm run build, and prisma/ with the migrations they apply (the
# build copies it in).
COPY --from=build --chown=node:node /app/.next/standalone ./
RUN mkdir -p data && chown node:node data
USER node
VOLUME /app/data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
# One process: apply pending migrations, then serve (scripts/start.ts, bundled); SIGTERM stops it
# with code 143 once the requests in flight are answered. The heap cap is server/heap-limit.ts's.
CMD ["node", "--max-old-space-size=384", "start.mjs"]
