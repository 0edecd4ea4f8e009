#!/bin/sh
# Set-up step of `npm run bench` and `npm run bench:sites`: the load generator (wrk) and the
# reference server (nginx) come from Debian's packages, installed here when missing so that a
# run never depends on what someone installed by hand. Usage: setup.sh [--nginx]
set -eu
missing=""
command -v wrk >/dev/null 2>&1 || missing="$missing wrk"
command -v taskset >/dev/null 2>&1 || missing="$missing util-linux"
if [ "${1:-}" = "--nginx" ] && [ ! -x "${NGINX:-/usr/sbin/nginx}" ]; then missing="$missing nginx"; fi
[ -z "$missing" ] && exit 0

echo "bench set-up: installing$missing (Debian packages)" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
# The benchmark starts its own nginx; the package must not leave a system-wide one running
# (on port 80, competing for the cores). policy-rc.d 101 tells maintainer scripts not to start
# services; it is removed again unless it was there before.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  $sudo sh -c 'printf "#!/bin/sh\nexit 101\n" > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d'
  trap '$sudo rm -f /usr/sbin/policy-rc.d' EXIT
fi
# An old or missing package list would make the install fail: refresh it first.
$sudo apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
