"""The OAuth 2.0 authorization server (preview): Authlib's, over app/domain/oauth/.

Authlib reads the requests, authenticates clients (`client_secret_post`, as the
contract writes it), picks the grant by `grant_type` (anything but `authorization_code`
and `refresh_token` is `unsupported_grant_type`) and writes RFC 6749's answers and
errors (`error`, `error_description`; `Cache-Control: no-store`). What a code or a
refresh token may become, and the atomic steps that make it so, are the domain's. The
endpoints answer only while `OAUTH_PREVIEW` is on; otherwise 404.
"""
