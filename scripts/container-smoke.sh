#!/usr/bin/env bash
# Builds the Docker image with podman and checks it against a running container: health, the token
# command, POST /plants with that token, and that the plant survives a stop (exit code 143) and a
# start on the same volume. Prints the image's size. Run by hand (not in CI), from the project folder:
#
#   bash scripts/container-smoke.sh
#
# Needs podman (Debian: apt-get install -y podman runc; vfs storage and the runc runtime work where
# overlay and crun do not) and the base image, node:20-bookworm-slim. On a machine that cannot pull
# it, a stand-in does: a Debian bookworm root file system (debootstrap --variant=minbase bookworm
# rootfs) with this machine's Node and npm in /usr/local, a `node` user (uid 1000), Node's headers in
# /usr/local/include/node (better-sqlite3 compiles against them) and the machine's CA certificates,
# imported with `podman import --change 'ENV NODE_EXTRA_CA_CERTS=...' --change 'ENV
# npm_config_nodedir=/usr/local' rootfs.tar node:20-bookworm-slim` (without nodedir, node-gyp tries
# to download the headers for better-sqlite3, and fails offline).
# In a sandbox that refuses podman's default resource limits ("error setting rlimit"), set lower
# ones in /etc/containers/containers.conf: [containers] default_ulimits = ["nofile=20000:20000",
# "nproc=4096:4096"].
#
# Settings: IMAGE (default plant-store:smoke), PORT (default 3999), SKIP_BUILD=1 to check an image
# already built.
set -euo pipefail

IMAGE=${IMAGE:-plant-store:smoke}
PORT=${PORT:-3999}
NAME=plant-store-smoke-$$
VOLUME=plant-store-smoke-$$
URL=http://127.0.0.1:$PORT

say() { printf '[smoke] %s\n' "$*"; }
fail() { say "FAILED: $*"; podman logs "$NAME" 2>&1 | tail -40 || true; exit 1; }
cleanup() { podman rm -f "$NAME" >/dev/null 2>&1 || true; podman volume rm -f "$VOLUME" >/dev/null 2>&1 || true; }
trap cleanup EXIT

wait_healthy() {
  local deadline=$((SECONDS + 120))
  until curl -sf "$URL/api/health" >/dev/null; do
    [ "$(podman inspect --format '{{.State.Running}}' "$NAME")" = true ] || fail "the container stopped before it was healthy"
    [ $SECONDS -lt $deadline ] || fail "not healthy within 120 s"
    sleep 0.5
  done
}

if [ "${SKIP_BUILD:-}" != 1 ]; then
  say "building $IMAGE"
  started=$SECONDS
  # Docker's image format: the OCI one has no HEALTHCHECK.
  podman build --format docker --network=host -t "$IMAGE" .
  say "built in $((SECONDS - started)) s"
fi

say "starting $NAME on port $PORT with volume $VOLUME (SQLite in /app/data)"
podman run -d --name "$NAME" --network=host -e PORT="$PORT" -e HOSTNAME=127.0.0.1 -v "$VOLUME:/app/data" "$IMAGE" >/dev/null
wait_healthy
say "healthy: $(curl -sf "$URL/api/health")"
# `podman image inspect` names the image's HEALTHCHECK where it kept one (Docker's format); some
# podman versions cannot read `.Config.Healthcheck` through `podman inspect --format`.
if podman image inspect "$IMAGE" 2>/dev/null | grep -q '"Healthcheck"'; then
  podman healthcheck run "$NAME" >/dev/null || fail "the image's HEALTHCHECK failed"
  say "the image's HEALTHCHECK passes (it asks /api/health on PORT=$PORT)"
else
  # An image built in OCI format keeps no HEALTHCHECK: run the Dockerfile's command in the container.
  check=$(sed -n 's/^HEALTHCHECK .* CMD //p' Dockerfile)
  podman exec "$NAME" sh -c "$check" || fail "the Dockerfile's HEALTHCHECK command failed"
  say "the Dockerfile's HEALTHCHECK command passes in the container (the image, in OCI format, keeps none)"
fi

processes=$(podman top "$NAME" pid comm args | tail -n +2)
say "processes in the container:"
printf '%s\n' "$processes" | sed 's/^/    /'
[ "$(printf '%s\n' "$processes" | awk '$2 == "node"' | wc -l)" = 1 ] || fail "expected one node process"
[ "$(printf '%s\n' "$processes" | awk '$1 == 1 { print $2 }')" = tini ] || fail "tini is not PID 1"

token=$(podman exec "$NAME" node cli/token.mjs create --name smoke | tail -n 1)
[[ $token == pst_* ]] || fail "the token command printed no token"
say "token command: created ${token:0:12}…"

id=$((RANDOM * 32768 + RANDOM + 1))
answer=$(curl -s -w ' %{http_code}' -X POST "$URL/plants" -H "authorization: Bearer $token" -H 'content-type: application/json' -d "{\"id\": $id, \"name\": \"Smoke test\"}")
[ "$answer" = "{\"id\":$id,\"name\":\"Smoke test\"} 200" ] || fail "POST /plants answered: $answer"
say "POST /plants: $answer"

podman stop -t 30 "$NAME" >/dev/null
code=$(podman inspect --format '{{.State.ExitCode}}' "$NAME")
[ "$code" = 143 ] || fail "stopped with exit code $code, not 143"
say "stopped on SIGTERM with exit code $code"

podman start "$NAME" >/dev/null
wait_healthy
again=$(curl -s -w ' %{http_code}' "$URL/plants/$id" -H "authorization: Bearer $token")
[ "$again" = "{\"id\":$id,\"name\":\"Smoke test\"} 200" ] || fail "after a restart GET /plants/$id answered: $again"
say "after a restart on the same volume: GET /plants/$id: $again"

size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
base=$(podman image inspect --format '{{.Size}}' node:20-bookworm-slim 2>/dev/null || echo 0)
say "image $IMAGE: $((size / 1000000)) MB, $(((size - base) / 1000000)) MB above node:20-bookworm-slim ($((base / 1000000)) MB)"
say "passed"
