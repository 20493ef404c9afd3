"""Connecting an app with OAuth (PKCE) and the client package: print the consent URL, read
back the URL the customer's browser landed on, keep the token in a file, and call the API
with it, the token refreshed and saved again whenever it expires. Type-checked with
`mypy --strict`.

    python connect_app.py CLIENT_ID CLIENT_SECRET REDIRECT_URI token.json
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from partner_api import Client, OAuthApp, Token


def main(client_id: str, client_secret: str, redirect_uri: str, kept: Path) -> int:
    base_url = os.environ.get("PARTNER_API_BASE_URL", "http://127.0.0.1:8000")
    app = OAuthApp(client_id, client_secret, redirect_uri, base_url=base_url)

    def save(token: Token) -> None:
        kept.write_text(json.dumps(token.to_dict()), encoding="utf-8")

    if kept.exists():
        token = Token.from_dict(json.loads(kept.read_text(encoding="utf-8")))
    else:
        asked = app.authorization_url(["employees:read"])
        print(f"open: {asked.url}", flush=True)
        landed = input("paste the URL you were sent back to: ")
        token = app.exchange(landed.strip(), asked)
        save(token)
    with Client(oauth_token=token, oauth_app=app, on_token_refresh=save, base_url=base_url) as client:
        company = client.company()
        print(f"connected to {company.id}: {sum(1 for _ in client.employees.list())} employees")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], Path(sys.argv[4])))
