#!/usr/bin/env bash
# The container image and the compose file, tested on this machine with Debian's podman and runc
# (docs/operations.md, Deploying with the image). It:
#   1. makes a local base image (base-image.sh) and builds the Dockerfile on it;
#   2. runs the image alone, on SQLite, with a read-only root and a volume: waits for /readyz and
#      the HEALTHCHECK, creates an organization and a key with the CLI inside the container,
#      publishes a site through the API and fetches it by its host, then stops it with events
#      still to deliver (exit 0) and starts it again: every event is delivered, none lost;
#   3. runs the `scale` topology: two web instances and a worker on PostgreSQL and Redis of this
#      machine, sees a request answered by each instance and one webhook delivered once;
#   4. checks compose.yaml with podman-compose: every service read, a missing PUBLIC_URL refused,
#      the default service run and answering.
# This VM cannot set rlimits: containers.conf sets none (default_ulimits = []) and uses host networking.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT_DIR=$PWD
WORK=$(mktemp -d /tmp/sitewright-container-XXXXXX)
IMAGE=localhost/sitewright:container-test
BASE=localhost/sitewright-test-base:24
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432/test}
REDIS=${CI_REDIS_URL:-redis://127.0.0.1:6379}
RUN_ID=$$
DB_NAME=sw_container_$RUN_ID
log() { printf '== container test: %s\n' "$*"; }
fail() { printf 'container test FAILED: %s\n' "$*" >&2; exit 1; }

for tool in podman runc debootstrap podman-compose curl; do
  command -v "$tool" >/dev/null || MISSING="${MISSING:-} $tool"
done
if [ -n "${MISSING:-}" ]; then
  apt-get update -q && apt-get install -y -q podman runc debootstrap podman-compose curl
fi

cat >"$WORK/containers.conf" <<'CONF'
[containers]
default_ulimits = []
netns = "host"
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
export CONTAINERS_CONF=$WORK/containers.conf
# Without systemd, podman cannot set timers for HEALTHCHECKs and says so on every start; the
# healthcheck is run by hand below.
podman() { command podman "$@" 2> >(grep -v 'systemd connection' >&2); }

CONTAINERS=()
RECEIVER_PID=
cleanup() {
  for name in "${CONTAINERS[@]}"; do podman rm -f -t 0 "$name" >/dev/null 2>&1 || true; done
  podman volume rm -f "sw-data-$RUN_ID" >/dev/null 2>&1 || true
  [ -n "$RECEIVER_PID" ] && kill "$RECEIVER_PID" 2>/dev/null || true
  psql "$PG_URL" -qc "DROP DATABASE IF EXISTS $DB_NAME WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
# json EXPR: reads JSON on stdin as `v` and prints EXPR (`v.key`, `Object.keys(v).length`).
json() { node -e "let d='';process.stdin.on('data',c=>d+=c).on('end',()=>{const v=JSON.parse(d);console.log(eval(process.argv[1]))})" "$1"; }
wait_ready() { # URL SECONDS
  for _ in $(seq 1 "$(($2 * 4))"); do
    curl -fsS "$1/readyz" >/dev/null 2>&1 && return 0
    sleep 0.25
  done
  return 1
}

log "base image"
bash test/container/base-image.sh "$BASE" "$WORK"
log "building the image on $BASE"
podman build -q --format docker --network host --build-arg "BASE_IMAGE=$BASE" -t "$IMAGE" . >/dev/null
[ "$(podman image inspect "$IMAGE" --format '{{.Config.User}}')" = sitewright ] || fail "the image does not run as its own user"

# A receiver for webhooks, on the host.
RECEIVER_PORT=$(free_port)
node test/container/receiver.mjs "$RECEIVER_PORT" &
RECEIVER_PID=$!
counts() { curl -fsS "http://127.0.0.1:$RECEIVER_PORT/counts"; }

# --- 2. alone, on SQLite ------------------------------------------------------------------------
PORT=$(free_port)
BASE_URL=http://127.0.0.1:$PORT
SINGLE=sw-single-$RUN_ID
CONTAINERS+=("$SINGLE")
podman volume create "sw-data-$RUN_ID" >/dev/null
single_run() {
  podman run -d --name "$SINGLE" --read-only -v "sw-data-$RUN_ID:/data" \
    -e "PORT=$PORT" -e "PUBLIC_URL=$BASE_URL" -e "SITES_DOMAIN=sites.test:$PORT" \
    -e WEBHOOKS_ALLOW_PRIVATE=true -e LOG_LEVEL=warn "$IMAGE" >/dev/null
}
log "running it alone (read-only root, volume /data) on port $PORT"
single_run
wait_ready "$BASE_URL" 60 || { podman logs "$SINGLE"; fail "/readyz never answered 200"; }
podman healthcheck run "$SINGLE" >/dev/null || fail "the HEALTHCHECK failed"
podman exec "$SINGLE" sh -c 'touch /app/x' 2>/dev/null && fail "the root file system is writable"
[ "$(podman exec "$SINGLE" id -u)" != 0 ] || fail "the server runs as root"

podman exec "$SINGLE" sitewright org create --name "Container Agency" >/dev/null
KEY=$(podman exec "$SINGLE" sitewright keys create --org "Container Agency" --permissions read,write --json | json v.key)
api() { curl -fsS -H "authorization: Bearer $KEY" -H 'content-type: application/json' "$@"; }
api -X POST "$BASE_URL/api/v1/webhooks" \
  -d "{\"url\":\"http://127.0.0.1:$RECEIVER_PORT/hook\",\"events\":[\"client.created\"]}" >/dev/null
api -X POST "$BASE_URL/api/v1/clients" -d '{"email":"owner@example.com","name":"Owner"}' >/dev/null
PROJECT=$(api -X POST "$BASE_URL/api/v1/projects" -d '{"name":"Bakery","client_email":"owner@example.com"}')
PROJECT_ID=$(echo "$PROJECT" | json v.project.id)
SUBDOMAIN=$(echo "$PROJECT" | json v.project.subdomain)
api -X POST "$BASE_URL/api/v1/projects/$PROJECT_ID/publish" \
  -d '{"builtFiles":{"index.html":"<!doctype html><title>Bakery</title><h1>Fresh bread daily</h1>"}}' >/dev/null
curl -fsS -H "host: $SUBDOMAIN.sites.test:$PORT" "$BASE_URL/" | grep -q 'Fresh bread daily' ||
  fail "the published site was not served by its host"
log "site published through the API and served by its host"

# Events still to deliver when the stop comes: none may be lost.
for i in $(seq 1 30); do
  api -X POST "$BASE_URL/api/v1/clients" -d "{\"email\":\"c$i@example.com\"}" >/dev/null
done
podman stop -t 20 "$SINGLE" >/dev/null
CODE=$(podman inspect "$SINGLE" --format '{{.State.ExitCode}}')
[ "$CODE" = 0 ] || { podman logs "$SINGLE" | tail -20; fail "the server exited with $CODE on SIGTERM"; }
podman rm "$SINGLE" >/dev/null
single_run
wait_ready "$BASE_URL" 60 || fail "the server did not come back on its volume"
for _ in $(seq 1 120); do
  [ "$(counts | json 'Object.keys(v).length')" -ge 31 ] && break
  sleep 0.5
done
DELIVERED=$(counts | json 'Object.keys(v).length')
[ "$DELIVERED" -ge 31 ] || fail "only $DELIVERED of 31 events were delivered after the restart"
log "stopped gracefully (exit 0); all 31 events delivered after the restart"
podman rm -f -t 5 "$SINGLE" >/dev/null

# --- 3. the scale topology on PostgreSQL and Redis -------------------------------------------------
psql "$PG_URL" -qc "CREATE DATABASE $DB_NAME" >/dev/null
DB_URL=${PG_URL%/*}/$DB_NAME
SECRETS_KEY=$(head -c 32 /dev/urandom | base64)
P1=$(free_port)
P2=$(free_port)
WH=$(free_port)
scale_env=(-e "DATABASE_URL=$DB_URL" -e "REDIS_URL=$REDIS" -e "SECRETS_KEY=$SECRETS_KEY"
  -e "PUBLIC_URL=http://127.0.0.1:$P1" -e WEBHOOKS_ALLOW_PRIVATE=true -e LOG_LEVEL=info)
for port in "$P1" "$P2"; do
  CONTAINERS+=("sw-web-$port-$RUN_ID")
  podman run -d --name "sw-web-$port-$RUN_ID" --read-only -e "PORT=$port" "${scale_env[@]}" \
    -e WEBHOOK_DISPATCHER=false -e GENERATION_WORKER=false "$IMAGE" >/dev/null
done
for port in "$P1" "$P2"; do
  wait_ready "http://127.0.0.1:$port" 90 || { podman logs "sw-web-$port-$RUN_ID" 2>&1 | tail -20; fail "the web instance on port $port never became ready"; }
done
# The worker opens a database the web instances have made (it refuses one without Sitewright's
# tables), as compose.yaml's depends_on orders it.
CONTAINERS+=("sw-worker-$RUN_ID")
podman run -d --name "sw-worker-$RUN_ID" --read-only -e "WORKER_HEALTH_PORT=$WH" "${scale_env[@]}" \
  "$IMAGE" worker >/dev/null
wait_ready "http://127.0.0.1:$WH" 60 || { podman logs "sw-worker-$RUN_ID" 2>&1 | tail -20; fail "the worker never became ready"; }
podman exec "sw-web-$P1-$RUN_ID" sitewright org create --name "Scaled Agency" >/dev/null
KEY=$(podman exec "sw-web-$P2-$RUN_ID" sitewright keys create --org "Scaled Agency" --permissions read,write --json | json v.key)
for port in "$P1" "$P2"; do
  ID=$(curl -fsS -o /dev/null -D - -H "authorization: Bearer $KEY" "http://127.0.0.1:$port/api/v1/clients" |
    tr -d '\r' | awk 'tolower($1)=="x-request-id:"{print $2}')
  # pino writes asynchronously: give the line a moment to reach the log.
  for _ in $(seq 1 40); do
    podman logs "sw-web-$port-$RUN_ID" 2>&1 | grep -q "$ID" && continue 2
    sleep 0.25
  done
  fail "instance $port did not log the request $ID"
done
log "a request answered by each web instance"
api -X POST "http://127.0.0.1:$P1/api/v1/webhooks" \
  -d "{\"url\":\"http://127.0.0.1:$RECEIVER_PORT/scaled\",\"events\":[\"client.created\"]}" >/dev/null
BEFORE=$(counts | json 'Object.keys(v).length')
api -X POST "http://127.0.0.1:$P2/api/v1/clients" -d '{"email":"scaled@example.com"}' >/dev/null
for _ in $(seq 1 60); do
  [ "$(counts | json 'Object.keys(v).length')" -gt "$BEFORE" ] && break
  sleep 0.5
done
sleep 3 # a second delivery of the same event would arrive by now
NEW=$(counts | json "Object.entries(v).slice($BEFORE).map(e=>e[1]).join(',')")
[ "$NEW" = 1 ] || fail "the webhook was delivered $NEW times (expected once, by the worker)"
log "the worker delivered the webhook once"

# --- 4. compose.yaml, with Debian's podman-compose (1.0.3: it has no `config` command and ignores
# profiles, so it is asked for the commands it would run, and runs the default service for real).
compose() { (cd "$ROOT_DIR" && SITEWRIGHT_IMAGE=$IMAGE command podman-compose -p "swc$RUN_ID" -f compose.yaml "$@"); }
if (unset PUBLIC_URL; compose --dry-run up -d sitewright) >"$WORK/missing.out" 2>"$WORK/missing.err"; then
  fail "compose.yaml accepted a missing PUBLIC_URL"
fi
grep -q 'set PUBLIC_URL' "$WORK/missing.err" || fail "compose.yaml's error does not say to set PUBLIC_URL"
PUBLIC_URL=https://app.example.com SITES_DOMAIN=sites.example.com SECRETS_KEY=$SECRETS_KEY \
  POSTGRES_PASSWORD=pw compose --dry-run up -d >"$WORK/dry-run.txt" 2>&1 || {
  cat "$WORK/dry-run.txt"
  fail "podman-compose could not read compose.yaml"
}
for service in sitewright postgres redis web-1 web-2 worker caddy; do
  grep -q -- "--name=swc${RUN_ID}_${service}_1" "$WORK/dry-run.txt" || fail "compose.yaml has no service $service"
done
grep -q -- "--read-only" "$WORK/dry-run.txt" || fail "compose.yaml does not run the app read-only"
CPORT=$(free_port)
CONTAINERS+=("swc${RUN_ID}_sitewright_1")
PORT=$CPORT PUBLIC_URL=http://127.0.0.1:$CPORT compose up -d sitewright >"$WORK/compose-up.txt" 2>&1 ||
  { cat "$WORK/compose-up.txt"; fail "podman-compose up failed"; }
wait_ready "http://127.0.0.1:$CPORT" 60 || { podman logs "swc${RUN_ID}_sitewright_1" 2>&1 | tail; fail "the compose service never became ready"; }
PORT=$CPORT PUBLIC_URL=http://127.0.0.1:$CPORT compose down >/dev/null 2>&1 || true
podman volume rm -f "swc${RUN_ID}_sitewright-data" >/dev/null 2>&1 || true
podman network rm -f "swc${RUN_ID}_sitewright" >/dev/null 2>&1 || true
log "compose.yaml: podman-compose reads every service, refuses a missing PUBLIC_URL, and runs the default one"
log "passed"
