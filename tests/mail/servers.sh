#!/usr/bin/env bash
# Real mail servers on 127.0.0.1 for the mail integration tests (see README.md here).
#
#   tests/mail/servers.sh install      install the Debian packages (root; no-op if present)
#   tests/mail/servers.sh start DIR    start SMTP (aiosmtpd) + IMAP (dovecot) for DIR/Maildir,
#                                      print SMTP_PORT=n and IMAP_PORT=n (also in DIR/ports.env)
#   tests/mail/servers.sh start-tls DIR  the same with TLS and logins: a test CA made here
#                                      (DIR/tls/ca.crt), dovecot with STARTTLS on IMAP_PORT
#                                      and implicit TLS on IMAPS_PORT, aiosmtpd with STARTTLS
#                                      on SMTP_PORT and implicit TLS on SMTPS_PORT (AUTH
#                                      PLAIN/LOGIN); also prints IMAPS_PORT, SMTPS_PORT, CA_FILE
#   tests/mail/servers.sh stop DIR     stop both (idempotent)
#
# As root the servers run as `nobody`; as any other user they run as that user.
set -euo pipefail

PY=/usr/bin/python3
DOVECOT=/usr/sbin/dovecot
PACKAGES=(python3-aiosmtpd dovecot-imapd openssl)
SMTP_USER=judge
SMTP_PASS=judge-smtp-pass
TLS=0
IMAP_USER=judge
IMAP_PASS=judge-pass
WAIT_SECS=10

die() { printf 'servers.sh: %s\n' "$*" >&2; exit 1; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=tests/apt.sh
source "$(dirname "${BASH_SOURCE[0]}")/../apt.sh"
usage() { die "usage: $0 install | start DIR | start-tls DIR | stop DIR"; }

# ---------------------------------------------------------------- install
cmd_install() {
  if packages_installed "${PACKAGES[@]}"; then return 0; fi
  apt_install "${PACKAGES[@]}"
  packages_installed "${PACKAGES[@]}" || die "${PACKAGES[*]} still not installed after apt-get"
}

# ---------------------------------------------------------------- helpers
# Run a command as the server user (nobody when we are root), with a clean environment.
# The command keeps the PID of the caller's process (env and setpriv exec it).
server_user_cmd() {
  SERVER_CMD=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME="$DIR")
  if [[ $EUID -eq 0 ]]; then
    SERVER_CMD+=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
  fi
  SERVER_CMD+=("$@")
}
as_server_user() { server_user_cmd "$@"; "${SERVER_CMD[@]}"; }

# Is PID alive and (guard against PID reuse) its command line contains WORD?
pid_is() {
  local pid=$1 word=$2
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  [[ -r /proc/$pid/cmdline ]] || return 1
  tr '\0' ' ' </proc/"$pid"/cmdline 2>/dev/null | grep -qF -- "$word"
}

# Wait until PID is gone (up to $2 tenths of a second); SIGKILL it otherwise.
wait_gone() {
  local pid=$1 tenths=$2 i
  for ((i = 0; i < tenths; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  sleep 0.1
}

# N (default 2) distinct free loopback ports.
free_ports() {
  "$PY" - "${1:-2}" <<'EOF'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

# Wait until PORT on 127.0.0.1 answers with a greeting AND its listening socket belongs
# to process PID (so a server of a parallel instance on the same port is not mistaken
# for ours). Exit 0 when ready, 1 on timeout, 2 when PID died.
wait_listening() {
  "$PY" - "$1" "$2" "$WAIT_SECS" "${3:-}" <<'EOF'
import os, socket, ssl, sys, time
port, pid, secs, cafile = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4]

def listener_inodes():
    found = set()
    with open("/proc/net/tcp") as f:
        next(f)
        for line in f:
            parts = line.split()
            local, state, inode = parts[1], parts[3], parts[9]
            ip, p = local.split(":")
            if state == "0A" and int(p, 16) == port and ip in ("0100007F", "00000000"):
                found.add(inode)
    return found

def owned_by_pid(inodes):
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:[") and link[8:-1] in inodes:
                return True
    except OSError:
        pass
    return False

deadline = time.monotonic() + secs
while time.monotonic() < deadline:
    if not os.path.exists(f"/proc/{pid}"):
        sys.exit(2)
    try:
        # Ready = our process owns the listener and the server sends its greeting
        # ("220 ..." for SMTP, "* OK ..." for IMAP).
        if owned_by_pid(listener_inodes()):
            with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
                if cafile:
                    # Implicit TLS: the greeting comes inside it, as the test CA vouches.
                    ctx = ssl.create_default_context(cafile=cafile)
                    s = ctx.wrap_socket(s, server_hostname="localhost")
                if s.recv(64)[:4] in (b"220 ", b"220-", b"* OK"):
                    sys.exit(0)
    except OSError:
        pass
    time.sleep(0.05)
sys.exit(1)
EOF
}

write_dovecot_conf() {
  local imap_port=$1 imaps_port=${2:-0} user group ssl_lines
  ssl_lines="ssl = no
disable_plaintext_auth = no"
  if [[ $TLS -eq 1 ]]; then
    # STARTTLS on the IMAP port, implicit TLS on the IMAPS port; no password before TLS.
    ssl_lines="ssl = required
ssl_cert = <$DIR/tls/server.crt
ssl_key = <$DIR/tls/server.key
disable_plaintext_auth = yes"
  fi
  if [[ $EUID -eq 0 ]]; then
    user=nobody; group=nogroup
  else
    user=$(id -un); group=$(id -gn)
  fi
  printf '%s:{PLAIN}%s\n' "$IMAP_USER" "$IMAP_PASS" >"$DIR/users"
  cat >"$DIR/dovecot.conf" <<EOF
# Generated by tests/mail/servers.sh: rootless IMAP on 127.0.0.1 for the tests.
base_dir = $DIR/run
state_dir = $DIR/state
log_path = $DIR/dovecot.log
info_log_path = $DIR/dovecot.log
protocols = imap
listen = 127.0.0.1
$ssl_lines
auth_mechanisms = plain login
default_login_user = $user
default_internal_user = $user
default_internal_group = $group
# INBOX is DIR/Maildir itself, the folder aiosmtpd delivers to.
mail_location = maildir:$DIR/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $DIR/users
}
userdb {
  driver = static
  args = uid=$user gid=$group home=$DIR/home/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = $imap_port
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $imaps_port
  }
}
service anvil {
  chroot =
}
EOF
}

# A test CA and a server certificate it signs, for localhost, 127.0.0.1 and ::1, in
# DIR/tls (made once per DIR). The tests trust DIR/tls/ca.crt through SSL_CERT_FILE.
make_certs() {
  local t=$DIR/tls
  [[ -f $t/server.crt && -f $t/ca.crt ]] && return 0
  mkdir -p "$t"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$t/ca.key" -out "$t/ca.crt" \
    -days 7 -subj "/CN=pbem-judge test CA" >/dev/null 2>&1 || die "openssl: the test CA"
  openssl req -newkey rsa:2048 -nodes -keyout "$t/server.key" -out "$t/server.csr" \
    -subj "/CN=localhost" >/dev/null 2>&1 || die "openssl: the server key"
  printf '%s\n' 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1' 'basicConstraints=CA:FALSE' \
    'keyUsage=digitalSignature,keyEncipherment' 'extendedKeyUsage=serverAuth' >"$t/ext.cnf"
  openssl x509 -req -in "$t/server.csr" -CA "$t/ca.crt" -CAkey "$t/ca.key" \
    -CAcreateserial -out "$t/server.crt" -days 7 -extfile "$t/ext.cnf" >/dev/null 2>&1 ||
    die "openssl: the server certificate"
  chmod 0644 "$t/server.key"
}

# ---------------------------------------------------------------- start / stop
stop_servers() {
  local pid
  if [[ -f $DIR/dovecot.conf ]] && [[ -x $DOVECOT ]]; then
    pid=$(cat "$DIR/run/master.pid" 2>/dev/null || true)
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
      as_server_user "$DOVECOT" -c "$DIR/dovecot.conf" stop >/dev/null 2>&1 || kill -TERM "$pid" 2>/dev/null || true
      wait_gone "$pid" 50
    fi
  fi
  if [[ -f $DIR/pids ]]; then
    while IFS='=' read -r name pid; do
      case $name in
        aiosmtpd) pid_is "$pid" "$DIR/Maildir" || continue ;;
        dovecot) pid_is "$pid" "$DIR/dovecot.conf" || continue ;;
        *) continue ;;
      esac
      kill -TERM "$pid" 2>/dev/null || true
      wait_gone "$pid" 50
    done <"$DIR/pids"
    rm -f "$DIR/pids"
  fi
}

try_start() {
  local smtp_port=$1 imap_port=$2 smtps_port=${3:-0} imaps_port=${4:-0} smtp_pid dovecot_pid rc
  write_dovecot_conf "$imap_port" "$imaps_port"
  touch "$DIR/aiosmtpd.log" "$DIR/dovecot.log"
  if [[ $EUID -eq 0 ]]; then chown -R nobody:nogroup "$DIR"; fi

  # SMTP: every message received is delivered into DIR/Maildir.
  if [[ $TLS -eq 1 ]]; then
    server_user_cmd "$PY" "$DIR/smtp_tls.py" "$DIR/Maildir" "$DIR/tls/server.crt" \
      "$DIR/tls/server.key" "$smtp_port" "$smtps_port" "$SMTP_USER" "$SMTP_PASS"
  else
    server_user_cmd "$PY" -m aiosmtpd -n -l "127.0.0.1:$smtp_port" \
      -c aiosmtpd.handlers.Mailbox "$DIR/Maildir"
  fi
  (cd "$DIR" && exec "${SERVER_CMD[@]}" </dev/null >>"$DIR/aiosmtpd.log" 2>&1) &
  smtp_pid=$!
  echo "aiosmtpd=$smtp_pid" >"$DIR/pids"

  # IMAP: dovecot forks into the background; its master PID lands in run/master.pid.
  if ! (cd "$DIR" && as_server_user "$DOVECOT" -c "$DIR/dovecot.conf" \
      </dev/null >>"$DIR/dovecot.log" 2>&1); then
    echo "servers.sh: dovecot failed to start; $DIR/dovecot.log says:" >&2
    tail -n 20 "$DIR/dovecot.log" >&2 || true
    return 1
  fi
  local i
  for ((i = 0; i < 10 * WAIT_SECS; i++)); do
    dovecot_pid=$(cat "$DIR/run/master.pid" 2>/dev/null || true)
    [[ -z $dovecot_pid ]] || break
    sleep 0.1
  done
  [[ -n $dovecot_pid ]] || { echo "servers.sh: dovecot wrote no $DIR/run/master.pid" >&2; return 1; }
  echo "dovecot=$dovecot_pid" >>"$DIR/pids"

  rc=0; wait_listening "$smtp_port" "$smtp_pid" || rc=$?
  if [[ $rc -ne 0 ]]; then
    echo "servers.sh: SMTP server (aiosmtpd) not answering on 127.0.0.1:$smtp_port" \
      "($([[ $rc -eq 2 ]] && echo exited || echo "timeout ${WAIT_SECS}s")); $DIR/aiosmtpd.log says:" >&2
    tail -n 20 "$DIR/aiosmtpd.log" >&2 || true
    return 1
  fi
  rc=0; wait_listening "$imap_port" "$dovecot_pid" || rc=$?
  if [[ $rc -ne 0 ]]; then
    echo "servers.sh: IMAP server (dovecot) not answering on 127.0.0.1:$imap_port" \
      "($([[ $rc -eq 2 ]] && echo exited || echo "timeout ${WAIT_SECS}s")); $DIR/dovecot.log says:" >&2
    tail -n 20 "$DIR/dovecot.log" >&2 || true
    return 1
  fi
  if [[ $TLS -eq 1 ]]; then
    local port
    for port in "$smtps_port" "$imaps_port"; do
      rc=0; wait_listening "$port" "$( [[ $port == "$smtps_port" ]] && echo "$smtp_pid" || echo "$dovecot_pid")" "$DIR/tls/ca.crt" || rc=$?
      if [[ $rc -ne 0 ]]; then
        echo "servers.sh: no TLS greeting on 127.0.0.1:$port; logs:" >&2
        tail -n 20 "$DIR/aiosmtpd.log" "$DIR/dovecot.log" >&2 || true
        return 1
      fi
    done
    printf 'SMTP_PORT=%s\nIMAP_PORT=%s\nSMTPS_PORT=%s\nIMAPS_PORT=%s\nCA_FILE=%s\n' \
      "$smtp_port" "$imap_port" "$smtps_port" "$imaps_port" "$DIR/tls/ca.crt" >"$DIR/ports.env"
  else
    printf 'SMTP_PORT=%s\nIMAP_PORT=%s\n' "$smtp_port" "$imap_port" >"$DIR/ports.env"
  fi
}

cmd_start() {
  [[ -x $PY ]] || die "$PY is missing"
  "$PY" -c 'import aiosmtpd' 2>/dev/null ||
    die "python3-aiosmtpd is not installed: run '$0 install' (as root)"
  [[ -x $DOVECOT ]] || die "dovecot is not installed: run '$0 install' (as root)"
  [[ $TLS -eq 0 ]] || command -v openssl >/dev/null || die "openssl is not installed: run '$0 install' (as root)"
  [[ $EUID -ne 0 ]] || command -v setpriv >/dev/null || die "setpriv (util-linux) is missing"

  mkdir -p "$DIR"
  DIR=$(cd "$DIR" && pwd -P)
  [[ $DIR != *[[:space:]\"\\]* ]] || die "DIR must not contain spaces, quotes or backslashes: $DIR"
  if [[ -f $DIR/pids ]]; then stop_servers; fi
  rm -f "$DIR/ports.env"
  mkdir -p "$DIR"/Maildir/{cur,new,tmp} "$DIR/run" "$DIR/state" "$DIR/home/$IMAP_USER"
  if [[ $TLS -eq 1 ]]; then
    make_certs
    # The server user may not reach the repository: it runs its own copy.
    cp "$HERE/smtp_tls.py" "$DIR/smtp_tls.py"
  fi
  if [[ $EUID -eq 0 ]]; then
    # The servers run as nobody: they own DIR and everything in it (root reads it all anyway).
    chown -R nobody:nogroup "$DIR"
    chmod 0755 "$DIR"
    as_server_user test -w "$DIR/Maildir/new" ||
      die "user nobody cannot reach $DIR (a parent folder is closed to others?): pick a DIR under /tmp"
  fi

  local attempt ports
  # A restart on the ports it had (SMTP_PORT and IMAP_PORT given): a client that
  # reconnects finds the servers where they were.
  if [[ -n ${SMTP_PORT:-} && -n ${IMAP_PORT:-} ]]; then
    try_start "$SMTP_PORT" "$IMAP_PORT" && { cat "$DIR/ports.env"; return 0; }
    stop_servers
    die "could not start the mail servers again on ports $SMTP_PORT and $IMAP_PORT"
  fi
  for attempt in 1 2 3; do
    read -r -a ports < <(free_ports 4)
    if try_start "${ports[0]}" "${ports[1]}" "${ports[2]}" "${ports[3]}"; then
      cat "$DIR/ports.env"
      return 0
    fi
    stop_servers
    echo "servers.sh: start attempt $attempt failed" >&2
  done
  die "could not start the mail servers in $DIR (logs: $DIR/aiosmtpd.log, $DIR/dovecot.log)"
}

cmd_stop() {
  [[ -d $DIR ]] || return 0
  DIR=$(cd "$DIR" && pwd -P)
  stop_servers
  rm -f "$DIR/ports.env"
}

case ${1:-} in
  install) [[ $# -eq 1 ]] || usage; cmd_install ;;
  start) [[ $# -eq 2 ]] || usage; DIR=$2; cmd_start ;;
  start-tls) [[ $# -eq 2 ]] || usage; DIR=$2; TLS=1; cmd_start ;;
  stop) [[ $# -eq 2 ]] || usage; DIR=$2; cmd_stop ;;
  *) usage ;;
esac
