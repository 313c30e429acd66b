"""TLS for NATS: a private CA and one certificate per nats-server node, made anew at every start of
the launcher for a config with ``[nats] tls = true``, and the nats-server config that uses them.

What it gives (docs/services.md, "TLS between the nodes and the services"):

- the **route** connections between the nodes of a cluster are TLS with ``verify``: each node
  proves itself to the other with its certificate, so a stranger can neither read the cluster's
  traffic nor join it as a route;
- the **client** port is TLS: a service checks the node's certificate against the CA
  (``--tls-ca``), before it sends its password (``paiju_services.bus.connect`` starts TLS before
  it reads anything: ``handshake_first``); clients are not asked for certificates, their password
  (``paiju_services.access``) says who they are.

The files go into the run's secrets folder beside the passwords (0600 files in a 0700 folder):
``ca.pem`` (the CA's certificate, all a client needs), ``<node>-cert.pem`` and ``<node>-key.pem``.
The CA's private key is never written: it signs the nodes' certificates in memory and is gone, so
no certificate can be made for this run afterwards. Keys are EC P-256; certificates last
``VALID_DAYS`` (a start makes new ones).

Keys are made with the ``cryptography`` package, not the openssl command (a fresh machine may lack
it).
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import os
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

VALID_DAYS = 30
SKEW = datetime.timedelta(minutes=5)  # a node's clock a little behind this one's still accepts
LOCAL_HOSTS = ("127.0.0.1", "localhost")
WILDCARDS = {"", "0.0.0.0", "::", "[::]"}
TLS_TIMEOUT = 5  # seconds a TLS handshake may take (nats-server's default is 2 for routes)


@dataclass(frozen=True)
class NodeFiles:
    """A node's TLS files: its certificate and key, and the CA that signed it (and every other
    node's)."""

    ca: Path
    cert: Path
    key: Path


def node_hosts(conf_text: str) -> list[str]:
    """The names a node is reached by, for its certificate: 127.0.0.1 and localhost, and the hosts
    its config listens on (client ``listen``, ``cluster { listen }``), or this machine's name for
    a wildcard address.

    >>> node_hosts("listen: 10.0.0.5:4222\\ncluster {\\n  listen: 0.0.0.0:6222\\n}\\n")[:3]
    ['127.0.0.1', 'localhost', '10.0.0.5']
    >>> node_hosts("listen: 4222") == ["127.0.0.1", "localhost", socket.gethostname()]
    True
    """
    hosts = list(LOCAL_HOSTS)
    listens = r"(?:^|[\s{;,])listen\s*[:=]\s*[\"']?(?:([^\s\"']*):)?\d+"
    uncommented = re.sub(r"(#|//).*$", "", conf_text, flags=re.M)
    for match in re.finditer(listens, uncommented, re.M):
        given = match[1] or ""
        host = given.strip("[]") if given not in WILDCARDS else socket.gethostname()
        if host not in hosts:
            hosts.append(host)
    return hosts


def _name(common: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Paiju"),
            x509.NameAttribute(NameOID.COMMON_NAME, common),
        ]
    )


def _san(hosts: Iterable[str]) -> x509.SubjectAlternativeName:
    names: list[x509.GeneralName] = []
    for host in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    return x509.SubjectAlternativeName(names)


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def make_ca(
    now: datetime.datetime, common: str = "Paiju NATS CA"
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """A self-signed CA that may sign node certificates only (path length 0)."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key()
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(common))
        .issuer_name(_name(common))
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - SKEW)
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )
    return cert, key


def make_node(
    name: str,
    hosts: Iterable[str],
    ca_cert: x509.Certificate,
    ca_key: ec.EllipticCurvePrivateKey,
    now: datetime.datetime,
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """A node's certificate, for ``hosts``, good as a server (its client port, the routes it
    accepts) and as a client (the routes it dials, checked with ``verify``)."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key()
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(name))
        .issuer_name(ca_cert.subject)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - SKEW)
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.ExtendedKeyUsage(
                [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]
            ),
            critical=False,
        )
        .add_extension(_san(hosts), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    return cert, key


def write_tls(folder: Path, nodes: dict[str, list[str]]) -> dict[str, NodeFiles]:
    """A new CA and a certificate for each node (name → the hosts it is reached by), written to
    ``folder`` (0700; files 0600); returns each node's files. The CA's key is not written."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    now = datetime.datetime.now(datetime.UTC)
    ca_cert, ca_key = make_ca(now)
    ca_path = folder / "ca.pem"
    _write_private(ca_path, ca_cert.public_bytes(serialization.Encoding.PEM))
    files: dict[str, NodeFiles] = {}
    for name, hosts in nodes.items():
        cert, key = make_node(name, hosts, ca_cert, ca_key, now)
        cert_path, key_path = folder / f"{name}-cert.pem", folder / f"{name}-key.pem"
        _write_private(key_path, _pem_key(key))
        _write_private(cert_path, cert.public_bytes(serialization.Encoding.PEM))
        files[name] = NodeFiles(ca_path, cert_path, key_path)
    return files


def tls_block(files: NodeFiles, verify: bool) -> str:
    """A nats-server ``tls`` block (JSON is valid NATS config syntax)."""
    block: dict[str, object] = {
        "cert_file": str(files.cert.resolve()),
        "key_file": str(files.key.resolve()),
        "timeout": TLS_TIMEOUT,
    }
    if verify:
        block["ca_file"] = str(files.ca.resolve())
        block["verify"] = True
    else:
        # services start TLS before the server's first line (bus.connect), other clients (the
        # nats command) may still read it first: after 50 ms without a handshake it is sent
        block["handshake_first"] = "auto"
    return "tls " + json.dumps(block)


CLUSTER = re.compile(r"^[ \t]*cluster[ \t]*[:=]?[ \t]*\{", re.M)
INCLUDE = re.compile(r"^([ \t]*include[ \t]+)([\"']?)([^\"'\s;]+)\2", re.M)


def server_conf(folder: Path, base: Path, files: NodeFiles, auth: bool) -> Path:
    """A nats-server config in ``folder``: ``base`` with TLS on its client port and, if it has a
    ``cluster`` block, on its routes (``verify``: a node must show a certificate of the CA), plus
    the generated users (``auth.conf`` of ``paiju_services.access``) when ``auth``.

    nats-server replaces a block defined twice rather than merging the two, so the route TLS can
    not be included beside ``base``: the config is a copy of ``base`` with the block written into
    its ``cluster``, and the copy's includes lead back to ``base``'s folder.

    Raises:
        ValueError: ``base`` already has a ``tls`` block (bring your own certificates to a NATS
            you run yourself, docs/services.md) or more than one ``cluster`` block.
    """
    text = base.read_text()
    if re.search(r"^[ \t]*tls[ \t]*[:=]?[ \t]*\{", text, re.M):
        raise ValueError(f"{base} has its own tls block: run that NATS yourself (tls = false)")
    clusters = CLUSTER.findall(text)
    if len(clusters) > 1:
        raise ValueError(f"{base} has {len(clusters)} cluster blocks")
    here, there = base.resolve().parent, folder.resolve()
    # nats-server reads an include relative to the including file, even an absolute path
    text = INCLUDE.sub(lambda m: f'{m[1]}"{os.path.relpath(here / m[3], there)}"', text)
    if clusters:
        text = CLUSTER.sub(lambda m: f"{m[0]}\n  {tls_block(files, verify=True)}", text, count=1)
    path = folder / f"{base.stem}.conf"
    lines = [f"# {base} with TLS (paiju_services.tls), made by the launcher", text.rstrip(), ""]
    lines.append(tls_block(files, verify=False))
    if auth:
        lines.append('include "auth.conf"')
    _write_private(path, ("\n".join(lines) + "\n").encode())
    return path


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        os.fchmod(out.fileno(), 0o600)  # a file left by an earlier run keeps its mode otherwise
        out.write(data)
