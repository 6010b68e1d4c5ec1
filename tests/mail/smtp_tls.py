"""SMTP with TLS and logins for the mail tests (tests/mail/servers.sh start-tls).

    smtp_tls.py MAILDIR CERT KEY STARTTLS_PORT SMTPS_PORT USER PASSWORD

Two aiosmtpd servers on 127.0.0.1 delivering into MAILDIR: one on STARTTLS_PORT that
requires STARTTLS before anything (and so before AUTH), one on SMTPS_PORT speaking TLS at
once (implicit TLS). Both take AUTH PLAIN and LOGIN for USER/PASSWORD only, and refuse
mail without a login. Runs until killed.
"""
import signal
import ssl
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import AuthResult, LoginPassword

maildir, cert, key, starttls_port, smtps_port, user, password = sys.argv[1:8]


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = (
        isinstance(auth_data, LoginPassword)
        and auth_data.login == user.encode()
        and auth_data.password == password.encode()
    )
    return AuthResult(success=ok, handled=False)


class Handler(Mailbox):
    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if not session.authenticated:
            return "530 5.7.0 Authentication required"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"


def context():
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(cert, key)
    return ctx


class Implicit(Controller):
    """Implicit TLS: the readiness probe of Controller.start() cannot speak TLS with a
    server context, so the server is made at once instead of on the first connection."""

    def _trigger_server(self):
        pass


common = dict(
    hostname="127.0.0.1",
    authenticator=authenticator,
    auth_require_tls=False,
    require_starttls=False,
)
plain = Controller(
    Handler(maildir),
    port=int(starttls_port),
    tls_context=context(),
    **{**common, "require_starttls": True, "auth_require_tls": True},
)
implicit = Implicit(Handler(maildir), port=int(smtps_port), ssl_context=context(), **common)
plain.start()
implicit.start()
signal.sigwait({signal.SIGTERM, signal.SIGINT})
implicit.stop()
plain.stop()
