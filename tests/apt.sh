# Debian packages for the test scripts that need them (tests/mail/servers.sh,
# tests/browser/setup.sh): source this file, after defining `die MESSAGE`.
#
#   packages_installed PKG...   whether every PKG is installed
#   apt_install PKG...          install them with apt-get (root); the package lists are
#                               refreshed only when one of them is unknown

packages_installed() {
  local p status
  for p in "$@"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) || return 1
    [[ $status == "install ok installed" ]] || return 1
  done
}

apt_install() {
  [[ $EUID -eq 0 ]] || die "installing $* needs root (apt-get)"
  local log p known=1
  log=$(mktemp)
  for p in "$@"; do
    apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [0-9]' || known=0
  done
  if [[ $known -eq 0 ]]; then
    apt-get update -qq >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; die "apt-get update failed"; }
  fi
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "$@" >"$log" 2>&1; then
    cat "$log" >&2; rm -f "$log"
    die "apt-get install $* failed"
  fi
  rm -f "$log"
}
