#!/usr/bin/env python3
"""Opens one sealed sync record with nothing but docs/sync-protocol.md and
Python's `cryptography` package: an implementation independent of the Swift one.

Usage: open_record.py SEED ACCOUNT_ID DEVICE_ID RECORD_ID VERSION SEALED_BASE64
Prints the record's kind and its JSON payload; exits 1 if it opens under no kind.

       open_record.py --command SEED ACCOUNT_ID SENDER TARGET COMMAND_ID EXPIRES_AT SEALED_BASE64
Prints a command's JSON payload ("Commands" in the doc); exits 1 if it does not open.
"""
import base64
import hashlib
import hmac
import json
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

SALT = b"sessionstore-sync/v1"
KINDS = ["tab", "device", "group", "closed"]


def derive(seed: bytes, info: str) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=SALT, info=info.encode()).derive(seed)


def open_command() -> int:
    seed_text, account_id, sender, target, command_id, expires_at, sealed_text = sys.argv[2:9]
    seed = base64.urlsafe_b64decode(seed_text + "=" * (-len(seed_text) % 4))
    sealed = base64.b64decode(sealed_text)
    if len(seed) != 32 or sealed[0] != 1:
        print("not a seed or not a version-1 sealed command", file=sys.stderr)
        return 2
    aad = f"sessionstore-command/v1\n{account_id}\n{sender}\n{target}\n{command_id}\n{expires_at}".encode()
    try:
        plain = ChaCha20Poly1305(derive(seed, "record-encryption")).decrypt(sealed[1:13], sealed[13:], aad)
    except Exception:
        print("the command does not open", file=sys.stderr)
        return 1
    print(json.dumps(json.loads(plain), sort_keys=True))
    return 0


def main() -> int:
    if sys.argv[1:2] == ["--command"]:
        return open_command()
    seed_text, account_id, device_id, record_id, version, sealed_text = sys.argv[1:7]
    seed = base64.urlsafe_b64decode(seed_text + "=" * (-len(seed_text) % 4))
    sealed = base64.b64decode(sealed_text)
    if len(seed) != 32 or sealed[0] != 1:
        print("not a seed or not a version-1 sealed record", file=sys.stderr)
        return 2
    key = derive(seed, "record-encryption")
    id_key = derive(seed, "record-id")
    nonce, ciphertext = sealed[1:13], sealed[13:]
    for kind in KINDS:
        aad = f"sessionstore-sync/v1\n{account_id}\n{device_id}\n{record_id}\n{kind}\n{version}".encode()
        try:
            plain = ChaCha20Poly1305(key).decrypt(nonce, ciphertext, aad)
        except Exception:
            continue
        payload = json.loads(plain)
        local_id = device_id if kind == "device" else payload["id"]
        expected = hmac.new(id_key, f"{kind}\n{device_id}\n{local_id}".encode(), hashlib.sha256).digest()[:16].hex()
        if expected != record_id:
            print("the record id does not match its content", file=sys.stderr)
            return 1
        print(json.dumps({"kind": kind, "payload": payload}, sort_keys=True))
        return 0
    print("the record opens under no kind", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
