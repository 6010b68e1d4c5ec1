#!/usr/bin/env bash
# Headless Chromium for the browser tests of `judge site` (tests/site_browser.rs).
#
#   tests/browser/setup.sh install   install Debian's chromium and the DejaVu fonts the
#                                    pages ask for (root; a no-op when present)
#   tests/browser/setup.sh path      print the browser's path (exit 1 if missing)
#
# The tests run it as `chromium --headless --no-sandbox --disable-gpu --disable-quic
# --no-first-run --disable-background-networking --disable-component-update
# --disable-sync --user-data-dir=<fresh> --remote-debugging-pipe`, and talk to it over
# the DevTools protocol on that pipe: no network, no driver, nothing else to install.
set -euo pipefail

PACKAGES=(chromium fonts-dejavu-core)

die() { printf 'setup.sh: %s\n' "$*" >&2; exit 1; }

packages_installed() {
  local p status
  for p in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) || return 1
    [[ $status == "install ok installed" ]] || return 1
  done
}

browser() {
  local b
  for b in /usr/bin/chromium /usr/bin/chromium-browser; do
    [[ -x $b ]] && { printf '%s\n' "$b"; return 0; }
  done
  return 1
}

cmd_install() {
  if packages_installed && browser >/dev/null; then return 0; fi
  [[ $EUID -eq 0 ]] || die "installing ${PACKAGES[*]} needs root (apt-get)"
  local log p known=1
  log=$(mktemp)
  for p in "${PACKAGES[@]}"; do
    apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [0-9]' || known=0
  done
  if [[ $known -eq 0 ]]; then
    apt-get update -qq >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; die "apt-get update failed"; }
  fi
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${PACKAGES[@]}" >"$log" 2>&1; then
    cat "$log" >&2; rm -f "$log"
    die "apt-get install ${PACKAGES[*]} failed"
  fi
  rm -f "$log"
  packages_installed && browser >/dev/null || die "${PACKAGES[*]} still not installed after apt-get"
}

case "${1:-}" in
  install) cmd_install ;;
  path) browser || die "no chromium: run \`bash tests/browser/setup.sh install\` as root" ;;
  *) die "usage: $0 install | path" ;;
esac
