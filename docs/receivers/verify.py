"""Verifies a webhook from Herald with Python's standard library alone (3.8 or later): copy this file.

The scheme, from docs/webhooks.md: `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`,
keyed with the endpoint's whole secret (`whsec_...`, prefix included) as UTF-8 text.
"""
import hashlib
import hmac
import json
import os
import sys
import time

TOLERANCE_SECONDS = 300


class WebhookVerificationError(Exception):
    """A request that must not be trusted: answer it with 400. `reason` says why."""

    def __init__(self, reason, message):
        super().__init__(f"{reason}: {message}")
        self.reason = reason


def verify_herald_webhook(raw_body, header, secrets, now=None):
    """Returns the event {id, event, createdAt, data} when the request is Herald's, else raises.

    raw_body: the body exactly as received (bytes, e.g. Flask's request.get_data(), never parsed JSON);
    header: the Service-Signature value; secrets: the secret, or [new_secret, old_secret] while rotating.
    """
    if not header or not header.strip():
        raise WebhookVerificationError("missing_header", "no Service-Signature header")
    if isinstance(raw_body, str):
        raw_body = raw_body.encode("utf-8")
    timestamp, signatures = None, []
    for item in header.split(","):
        key, _, value = item.strip().partition("=")
        if key == "t":
            if timestamp is not None or not (value.isascii() and value.isdigit()):
                raise WebhookVerificationError("malformed_header", "t= must appear once, in whole unix seconds")
            timestamp = int(value)
        elif key == "v1":
            signatures.append(value.encode("utf-8"))  # several during a rotation; other schemes are ignored
    if timestamp is None or not signatures:
        raise WebhookVerificationError("malformed_header", "expected t=<unix seconds>,v1=<signature>")
    signed = f"{timestamp}.".encode("utf-8") + raw_body
    expected = [
        hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest().encode("utf-8")
        for secret in ([secrets] if isinstance(secrets, str) else secrets)
    ]
    # compare_digest is constant-time.
    if not any(hmac.compare_digest(given, each) for given in signatures for each in expected):
        raise WebhookVerificationError("signature_mismatch", "not signed with this secret over this exact body")
    # Checked after the signature: a genuine request outside 5 minutes is a replay, or a clock is off.
    now = int(time.time()) if now is None else now
    if now - timestamp > TOLERANCE_SECONDS:
        raise WebhookVerificationError("timestamp_too_old", f"signed {now - timestamp} s ago")
    if timestamp - now > TOLERANCE_SECONDS:
        raise WebhookVerificationError("timestamp_in_future", f"signed {timestamp - now} s ahead of this clock")
    return json.loads(raw_body)


# As a script, to check a captured request: python3 verify.py '<Service-Signature>' [now, unix seconds] < body
if __name__ == "__main__":
    keys = [os.environ.get("HERALD_WEBHOOK_SECRET"), os.environ.get("HERALD_WEBHOOK_SECRET_OLD")]
    keys = [key for key in keys if key]
    if not keys:
        sys.exit("Set HERALD_WEBHOOK_SECRET to the endpoint's whsec_... secret")
    try:
        event = verify_herald_webhook(
            sys.stdin.buffer.read(),
            sys.argv[1] if len(sys.argv) > 1 else None,
            keys,
            int(sys.argv[2]) if len(sys.argv) > 2 else None,
        )
        print(f"verified {event['event']} {event['id']}")
    except WebhookVerificationError as error:
        print(f"refused: {error}", file=sys.stderr)
        sys.exit(1)
