"""Sending email: SMTP when `SMTP_URL` is set, otherwise the message is written to the log
(the quick start has no mail server, and the operator can still hand a link on).

    smtp://user:password@host:587   STARTTLS when the server offers it
    smtps://user:password@host:465  TLS from the first byte
    smtp://127.0.0.1:1025           a local relay, no login
"""

import logging
import smtplib
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

from config import ConfigurationError

log = logging.getLogger(__name__)


class LogMailer:
    def send(self, to, subject, body):
        log.warning("no SMTP_URL set; email to %s not sent, here it is:\nSubject: %s\n\n%s", to, subject, body)


class SmtpMailer:
    def __init__(self, url, sender, timeout=10):
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ConfigurationError("SMTP_URL must be smtp://host[:port] or smtps://host[:port], "
                                     f"not {url.split(':')[0]!r}")
        self.tls = parts.scheme == "smtps"
        self.host, self.port = parts.hostname, parts.port or (465 if self.tls else 25)
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.sender, self.timeout = sender, timeout

    def send(self, to, subject, body):
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = self.sender, to, subject
        message.set_content(body)
        with self._session() as server:
            server.send_message(message)

    def check(self):
        """Connect, secure and sign in as a send would, and send nothing (`doctor`)."""
        with self._session() as server:
            server.noop()

    def _session(self):
        connect = smtplib.SMTP_SSL if self.tls else smtplib.SMTP
        server = connect(self.host, self.port, timeout=self.timeout)
        try:
            if not self.tls:
                server.ehlo()
                if server.has_extn("starttls"):
                    server.starttls()
            if self.user:
                server.login(self.user, self.password or "")
        except BaseException:
            server.close()
            raise
        return server


def make_mailer(url, sender):
    return SmtpMailer(url, sender) if url else LogMailer()
