# syntax=docker/dockerfile:1
# The HKMI field app: the built server and web app on Node 24, the active LTS (Debian slim, glibc, for
# sharp's and argon2's prebuilt linux-x64 binaries; not alpine). The project still runs on
# Node 20 (package.json engines), which reached its end of life in April 2026.
# Build: docker build -t hkmi-field-app .   Run several instances: compose.yaml (README, "Several instances").
# server/deployment.test.ts checks this file against the code (settings, start entry, routes).
ARG NODE_VERSION=24

# Build stage: every dependency (TypeScript, Vite, Lingui), then the web app and the server.
FROM node:${NODE_VERSION}-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies only, installed for this platform (sharp's linux-x64 glibc binary and
# libvips come as npm packages: no compiler, no system libvips).
FROM node:${NODE_VERSION}-trixie-slim AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:${NODE_VERSION}-trixie-slim AS runtime
ENV NODE_ENV=production \
    PORT=5000 \
    DATA_DIR=/data \
    BACKUP_DIR=/backups
WORKDIR /app
# Owned by root and read-only to the app's user: the process cannot change its own code.
COPY package.json package-lock.json ./
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# What the server reads besides its compiled code (server/paths.ts): migrations, PDF fonts and
# the owner's documents.
COPY server/db/migrations ./server/db/migrations
COPY server/pdf/fonts ./server/pdf/fonts
COPY docs ./docs
# The data and backup folders belong to the unprivileged `node` user (uid 1000) the image
# provides; the server keeps them owner-only (0700). A named volume mounted here starts with
# this owner and mode.
RUN mkdir -p /data /backups && chown node:node /data /backups && chmod 700 /data /backups
USER node
VOLUME ["/data", "/backups"]
EXPOSE 5000
# Readiness, not mere liveness: an instance that lost its database or blob store, or is
# stopping, reports unhealthy. Node's own fetch: the slim image has no curl or wget.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 5000) + '/api/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself as PID 1: main.ts handles SIGTERM (finishes requests, closes the database).
CMD ["node", "dist/server/main.js"]
