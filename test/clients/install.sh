#!/usr/bin/env bash
# Installs what `npm run test:clients` needs (Debian packages only; playwright-core comes from npm
# and downloads no browser). Safe to run again: it installs only what is missing. Exits non-zero
# with the reason when a package cannot be installed, so CI fails loudly instead of skipping.
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "test/clients/install.sh: not root and no sudo: cannot install Debian packages" >&2
    exit 1
  fi
fi

# package → a file it provides (checked instead of dpkg state, so a partial install is repaired)
declare -A provides=(
  [owncloud-client]=/usr/bin/owncloud
  [nextcloud-desktop]=/usr/bin/nextcloud
  [xvfb]=/usr/bin/Xvfb
  [xdotool]=/usr/bin/xdotool
  [gnome-keyring]=/usr/bin/gnome-keyring-daemon
  [dbus-x11]=/usr/bin/dbus-launch
  [nginx-light]=/usr/sbin/nginx
  [apache2]=/usr/sbin/apache2
  [chromium]=/usr/bin/chromium
  [openssl]=/usr/bin/openssl
  [util-linux]=/usr/bin/unshare
  [ca-certificates]=/etc/ssl/certs/ca-certificates.crt
  # test/clients/oidc-agent.test.ts: oidc-gen, oidc-agent, oidc-token (RFC 8628 device flow)
  [oidc-agent-cli]=/usr/bin/oidc-gen
)

missing=()
for package in "${!provides[@]}"; do
  [ -e "${provides[$package]}" ] || missing+=("$package")
done
# nginx and Apache are wanted as foreground children of the test only: never as system services.
if [ "${#missing[@]}" -eq 0 ]; then
  echo "client-test packages already installed"
  exit 0
fi

echo "installing client-test packages: ${missing[*]}"
updated=false
for attempt in 1 2 3; do
  if $SUDO apt-get update -q; then updated=true; break; fi
  echo "apt-get update failed (attempt $attempt)" >&2
  sleep $((attempt * 5))
done
$updated || echo "apt-get update kept failing; trying with the package lists already here" >&2

# policy-rc.d: keep Debian's nginx and apache2 postinsts from starting system servers on port 80.
policy=/usr/sbin/policy-rc.d
made_policy=false
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
  $SUDO chmod 755 "$policy"
  made_policy=true
fi
installed=false
for attempt in 1 2 3; do
  if $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"; then installed=true; break; fi
  echo "apt-get install failed (attempt $attempt)" >&2
  sleep $((attempt * 5))
done
if $made_policy; then $SUDO rm -f "$policy"; fi
if ! $installed; then
  echo "test/clients/install.sh: could not install: ${missing[*]} (see apt-get's output above)" >&2
  exit 1
fi

for package in "${missing[@]}"; do
  if [ ! -e "${provides[$package]}" ]; then
    echo "test/clients/install.sh: $package installed but ${provides[$package]} is missing" >&2
    exit 1
  fi
done
echo "owncloud client: $(dpkg-query -W -f='${Version}' owncloud-client), nextcloud client: $(dpkg-query -W -f='${Version}' nextcloud-desktop), chromium: $(dpkg-query -W -f='${Version}' chromium)"
