"""HTTPS in front of a loopback HTTP server: TLS ends here and the plain bytes go on to the server's port.

    with TlsFront(web_port, tmp_path) as front:     # front.url is https://127.0.0.1:PORT/
        monkeypatch.setenv("SSL_CERT_FILE", str(front.certificate))   # what the client trusts

The certificate is made for 127.0.0.1 when the front starts (self-signed, a day long), so a client that trusts
it verifies the host as it would a real one. Used to carry a transfer through a proxy's CONNECT tunnel.
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import socket
import ssl
import threading
from pathlib import Path
from types import TracebackType

from tests.support.forward_proxy import LOOPBACK, pipe_both_ways


class TlsFront:
    def __init__(self, target_port: int, folder: Path) -> None:
        self.target_port = target_port
        self.certificate, key = _self_signed(folder)
        self._context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self._context.load_cert_chain(self.certificate, key)
        self._listener = socket.create_server((LOOPBACK, 0))
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._accept, name="tls-front", daemon=True)

    @property
    def url(self) -> str:
        return f"https://{LOOPBACK}:{self._listener.getsockname()[1]}/"

    def __enter__(self) -> TlsFront:
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stopping.set()
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        self._thread.join(10)

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        try:
            secured = self._context.wrap_socket(client, server_side=True)
            upstream = socket.create_connection((LOOPBACK, self.target_port), timeout=30)
        except OSError:
            client.close()
            return
        with secured:
            pipe_both_ways(secured, upstream, self._stopping)


def _self_signed(folder: Path) -> tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, LOOPBACK)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(LOOPBACK))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = folder / "loopback-cert.pem", folder / "loopback-key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path
