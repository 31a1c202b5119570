"""A relying party built on Authlib (a library nobody on the team wrote), driven by authlib.test.ts.

Discovery, then the authorization code flow with PKCE (S256) and a nonce; the ID token is validated
by Authlib (signature against jwks_uri, iss, aud, exp, nonce, at_hash); then UserInfo, a refresh
(OIDC Core 12.2: a new ID token with the same sub and auth_time) and RP-initiated logout.

Protocol on stdin/stdout, one JSON object per line: the script prints {"step": "authorize", "url"}
and reads back the redirect URL the browser landed on; then {"step": "logout", "url"} and reads
back the Location the end-session endpoint answered; finally {"step": "done", ...}.
"""

import json
import sys
from urllib.parse import urlencode

import requests
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, jwt
from authlib.oidc.core import CodeIDToken


def say(message):
    print(json.dumps(message), flush=True)


def validated_id_token(id_token, jwks, issuer, client_id, access_token, nonce):
    claims_params = {"client_id": client_id, "access_token": access_token}
    if nonce is not None:
        claims_params["nonce"] = nonce
    claims = jwt.decode(
        id_token,
        JsonWebKey.import_key_set(jwks),
        claims_cls=CodeIDToken,
        claims_options={"iss": {"essential": True, "value": issuer}},
        claims_params=claims_params,
    )
    # Validates iss, aud, exp, iat, nonce and at_hash (OIDC Core 3.1.3.7, 3.1.3.8).
    claims.validate()
    if "at_hash" not in claims:
        raise SystemExit("the ID token has no at_hash")
    return claims


def main():
    issuer, client_id, client_secret, redirect_uri, post_logout = sys.argv[1:6]
    discovery = requests.get(f"{issuer}/.well-known/openid-configuration", timeout=10)
    discovery.raise_for_status()
    metadata = discovery.json()
    if metadata["issuer"] != issuer:
        raise SystemExit(f"discovery names another issuer: {metadata['issuer']}")

    session = OAuth2Session(
        client_id,
        client_secret,
        scope="openid profile email",
        redirect_uri=redirect_uri,
        code_challenge_method="S256",
        token_endpoint_auth_method="client_secret_basic",
    )
    code_verifier = generate_token(64)
    nonce = generate_token(20)
    url, state = session.create_authorization_url(
        metadata["authorization_endpoint"], code_verifier=code_verifier, nonce=nonce
    )
    say({"step": "authorize", "url": url})
    callback = sys.stdin.readline().strip()
    token = session.fetch_token(
        metadata["token_endpoint"], authorization_response=callback, state=state, code_verifier=code_verifier
    )
    jwks = requests.get(metadata["jwks_uri"], timeout=10).json()
    claims = validated_id_token(token["id_token"], jwks, issuer, client_id, token["access_token"], nonce)

    userinfo = session.get(metadata["userinfo_endpoint"]).json()
    if userinfo["sub"] != claims["sub"]:
        raise SystemExit("UserInfo sub differs from the ID token's")

    refreshed = session.refresh_token(metadata["token_endpoint"], refresh_token=token["refresh_token"])
    refreshed_claims = validated_id_token(
        refreshed["id_token"], jwks, issuer, client_id, refreshed["access_token"], None
    )
    if refreshed_claims["sub"] != claims["sub"] or refreshed_claims.get("auth_time") != claims.get("auth_time"):
        raise SystemExit("the refreshed ID token changed sub or auth_time")

    logout_url = metadata["end_session_endpoint"] + "?" + urlencode(
        {"id_token_hint": refreshed["id_token"], "post_logout_redirect_uri": post_logout, "state": "authlib-bye"}
    )
    say({"step": "logout", "url": logout_url})
    landed = sys.stdin.readline().strip()
    if landed != f"{post_logout}?state=authlib-bye":
        raise SystemExit(f"logout landed on {landed}")

    say(
        {
            "step": "done",
            "sub": claims["sub"],
            "nonce": claims["nonce"],
            "email": userinfo.get("email"),
            "refreshed_access_token_differs": refreshed["access_token"] != token["access_token"],
        }
    )


if __name__ == "__main__":
    main()
