/**
 * OAuth 2.0 for an app a customer connects: the authorization URL with PKCE (S256) and
 * `state`, the code exchange (the callback's `state` and RFC 9207 `iss` checked first),
 * refreshing with rotation, and revoking. oauth4webapi makes and checks the requests.
 *
 *     const app = new OAuthApp({ clientId, clientSecret, redirectUri, baseUrl });
 *     const asked = await app.authorizationUrl(["employees:read"]);   // send the customer to asked.url
 *     const token = await app.exchange(callbackUrl, asked);            // where the customer came back to
 *     const client = new Client({ oauthToken: token, oauthApp: app, onTokenRefresh: save, baseUrl });
 *
 * Every refresh token works once (the server rotates it, and a second use ends the
 * connection), so keep the token `onTokenRefresh` hands you, and refresh from one process
 * at a time.
 */
import * as oauth from "oauth4webapi";

import type { Fetch } from "./fetch.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8000"; // where `flask --app wsgi serve` listens
const KEPT_REFRESHES = 64; // refresh tokens whose new token is remembered

/**
 * What the token endpoint gave, to keep whole (JSON): the same fields the Python client's
 * `Token.to_dict()` stores, so either client reads the other's file.
 */
export interface Token {
  access_token: string;
  refresh_token: string | null;
  expires_at: number | null; // Unix seconds
  scope: string;
}

/**
 * One request for consent: send the customer to `url`; keep `state` and `codeVerifier` (in
 * their session) until they come back.
 */
export interface Authorization {
  url: string;
  state: string;
  codeVerifier: string;
}

/**
 * The authorization server said no (RFC 6749's `error`), or the callback could not be
 * trusted (`state_mismatch`, `issuer_mismatch`). `invalid_grant` on a refresh means the
 * customer must connect the app again.
 */
export class OAuthError extends Error {
  override readonly name = "OAuthError";

  constructor(readonly error: string, readonly description?: string) {
    super(description ? `${error}: ${description}` : error);
  }
}

export interface OAuthAppOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  baseUrl?: string | undefined;
  fetch?: Fetch | undefined;
}

/**
 * A registered app (its client id, secret and one of its redirect URIs) against one
 * server, whose endpoints come from its metadata (RFC 8414).
 */
export class OAuthApp {
  readonly clientId: string;
  readonly redirectUri: string;
  private readonly issuer: URL;
  private readonly client: oauth.Client;
  private readonly authentication: oauth.ClientAuth;
  private readonly options: {
    [oauth.allowInsecureRequests]: boolean;
    [oauth.customFetch]?: (url: string, init: oauth.CustomFetchOptions<string, unknown>) => Promise<Response>;
  };
  private server: Promise<oauth.AuthorizationServer> | undefined;
  private refreshing: Promise<unknown> = Promise.resolve();
  // Each refresh token's refresh, in flight or done: a second caller with the same token
  // (two Clients sharing this app, say) gets its new token, never spends it again.
  private readonly refreshed = new Map<string, Promise<Token>>();

  constructor(options: OAuthAppOptions) {
    this.clientId = options.clientId;
    this.redirectUri = options.redirectUri;
    this.issuer = new URL(options.baseUrl ?? DEFAULT_BASE_URL);
    this.client = { client_id: options.clientId };
    this.authentication = oauth.ClientSecretBasic(options.clientSecret);
    // http:// only where the server is this machine (a development server); anywhere else, https.
    const local = ["127.0.0.1", "localhost", "[::1]"].includes(this.issuer.hostname);
    const given = options.fetch;
    this.options = { [oauth.allowInsecureRequests]: local };
    if (given !== undefined) {
      this.options[oauth.customFetch] = (url, init) => given(new Request(url, init as RequestInit));
    }
  }

  /** The server's `/.well-known/oauth-authorization-server`, asked once; its `issuer` must be the base URL's. */
  metadata(): Promise<oauth.AuthorizationServer> {
    this.server ??= oauth.discoveryRequest(this.issuer, { algorithm: "oauth2", ...this.options })
      .then((answer) => oauth.processDiscoveryResponse(this.issuer, answer))
      .catch(async (error: unknown) => {
        this.server = undefined;
        throw await refusal(error);
      });
    return this.server;
  }

  /** Where to send the customer: the consent page, asking for `scopes`, with a fresh PKCE verifier (S256) and state. */
  async authorizationUrl(scopes: readonly string[],
                         options: { state?: string | undefined } = {}): Promise<Authorization> {
    const server = await this.metadata();
    if (server.authorization_endpoint === undefined) throw new OAuthError("server_error", "no authorization_endpoint");
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = options.state ?? oauth.generateRandomState();
    const url = new URL(server.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: "code", client_id: this.clientId, redirect_uri: this.redirectUri, scope: scopes.join(" "),
      state, code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: "S256",
    }).toString();
    return { url: url.href, state, codeVerifier };
  }

  /**
   * The tokens for the code the customer came back with. Refuses a callback whose `state`
   * is not this authorization's, or whose `iss` is another server's (RFC 9207); a declined
   * consent throws `OAuthError("access_denied")`.
   */
  async exchange(callbackUrl: string | URL, authorization: Authorization): Promise<Token> {
    const server = await this.metadata();
    const answer = new URL(callbackUrl).searchParams;
    if (answer.get("state") !== authorization.state) {
      throw new OAuthError("state_mismatch", "the callback's state is not the one this authorization sent");
    }
    if (answer.has("iss") && answer.get("iss") !== server.issuer) {
      throw new OAuthError("issuer_mismatch", `the callback came from ${JSON.stringify(answer.get("iss"))}`);
    }
    return this.token(async () => {
      const parameters = oauth.validateAuthResponse(server, this.client, answer, authorization.state);
      const sent = await oauth.authorizationCodeGrantRequest(
        server, this.client, this.authentication, parameters, this.redirectUri, authorization.codeVerifier,
        this.options);
      return oauth.processAuthorizationCodeResponse(server, this.client, sent);
    });
  }

  /**
   * A new token for `token`'s refresh token, which then stops working. One refresh at a
   * time per app object: two with the same refresh token would end the connection.
   */
  refresh(token: Token): Promise<Token> {
    const refreshToken = token.refresh_token;
    if (!refreshToken) return Promise.reject(new OAuthError("invalid_grant", "this token has no refresh token"));
    const known = this.refreshed.get(refreshToken);
    if (known !== undefined) return known;
    const done = this.refreshing.then(() => this.token(async () => {
      const server = await this.metadata();
      const sent = await oauth.refreshTokenGrantRequest(server, this.client, this.authentication, refreshToken,
                                                        this.options);
      return oauth.processRefreshTokenResponse(server, this.client, sent);
    }));
    this.refreshed.set(refreshToken, done);
    if (this.refreshed.size > KEPT_REFRESHES) this.refreshed.delete(this.refreshed.keys().next().value as string);
    done.catch(() => this.refreshed.delete(refreshToken)); // not spent, or refused: a later call asks again
    this.refreshing = done.catch(() => undefined);
    return done;
  }

  /** Ends the connection (RFC 7009): its refresh token, and with it every token of it. */
  async revoke(token: Token): Promise<void> {
    const server = await this.metadata();
    try {
      const sent = await oauth.revocationRequest(server, this.client, this.authentication,
                                                 token.refresh_token ?? token.access_token, this.options);
      await oauth.processRevocationResponse(sent);
    } catch (error) {
      throw await refusal(error);
    }
  }

  private async token(grant: () => Promise<oauth.TokenEndpointResponse>): Promise<Token> {
    let body: oauth.TokenEndpointResponse;
    try {
      body = await grant();
    } catch (error) {
      throw await refusal(error);
    }
    return {
      access_token: body.access_token,
      refresh_token: body.refresh_token ?? null,
      expires_at: body.expires_in === undefined ? null : Date.now() / 1000 + body.expires_in,
      scope: body.scope ?? "",
    };
  }
}

/**
 * What the server or the callback said, as OAuthError: an RFC 6749 error body, an
 * authorization error in the callback, a 401 with a `WWW-Authenticate` challenge (a wrong
 * client secret: its body's `error`, else `invalid_client`), or an answer that breaks the
 * protocol (`invalid_response`). A fault of another kind (the network) goes on as it is.
 */
async function refusal(error: unknown): Promise<unknown> {
  if (error instanceof OAuthError) return error;
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
    return new OAuthError(error.error, error.error_description);
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const body: unknown = await error.response.json().catch(() => ({}));
    const said = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
    return new OAuthError(typeof said.error === "string" ? said.error : "invalid_client",
                          typeof said.error_description === "string" ? said.error_description : undefined);
  }
  if (error instanceof oauth.OperationProcessingError) return new OAuthError("invalid_response", error.message);
  return error;
}
