#!/usr/bin/env bash
# Headless Chromium for the browser tests of `judge site` (tests/judge_core/site_browser.rs).
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
# shellcheck source=tests/apt.sh
source "$(dirname "${BASH_SOURCE[0]}")/../apt.sh"

browser() {
  local b
  for b in /usr/bin/chromium /usr/bin/chromium-browser; do
    [[ -x $b ]] && { printf '%s\n' "$b"; return 0; }
  done
  return 1
}

cmd_install() {
  if packages_installed "${PACKAGES[@]}" && browser >/dev/null; then return 0; fi
  apt_install "${PACKAGES[@]}"
  packages_installed "${PACKAGES[@]}" && browser >/dev/null || die "${PACKAGES[*]} still not installed after apt-get"
}

case "${1:-}" in
  install) cmd_install ;;
  path) browser || die "no chromium: run \`bash tests/browser/setup.sh install\` as root" ;;
  *) die "usage: $0 install | path" ;;
esac
