# Plant Store as a container: the standalone Next.js server, migrations applied at start.
# Build: docker build -t plant-store .
# Run:   docker run -p 3000:3000 -v plant-data:/app/data plant-store                     (SQLite)
#        docker run -p 3000:3000 -e DATABASE_URL=postgresql://... -e AUTH_SECRET=... plant-store
# Not built in this project's CI (its machines cannot pull base images); see docs/operations.md, "Docker".

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
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0
# What `npm start` needs: the standalone server, its start-up steps, and the migration engine with
# the migrations; lib/, server/ (which lib/ imports some modules from) and scripts/ also serve the
# token and user CLIs (npm run token, npm run user).
COPY --from=build --chown=node:node /app/.next/standalone ./.next/standalone
COPY --from=build --chown=node:node /app/.next/plant-store-start.mjs ./.next/
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/package.json /app/prisma.config.ts /app/tsconfig.json ./
COPY --from=build --chown=node:node /app/prisma ./prisma
COPY --from=build --chown=node:node /app/lib ./lib
COPY --from=build --chown=node:node /app/server ./server
COPY --from=build --chown=node:node /app/scripts ./scripts
RUN mkdir -p data && chown node:node data
USER node
VOLUME /app/data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# npm start's steps (scripts/start.ts, bundled by the build): apply migrations, then run
# .next/standalone/server.js and pass SIGTERM on to it.
CMD ["node", "scripts/start.mjs"]
