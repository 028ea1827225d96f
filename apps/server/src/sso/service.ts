/**
 * Single sign-on over OpenID Connect: authorization code with PKCE, state and nonce kept server-side
 * (hashed state, ten minutes) and bound to the browser by a cookie. The identity provider sends the user
 * back to the console's /authredirect, which hands the callback to /api/sso/exchange for a Herald token.
 */
import * as oidc from 'openid-client';
import type { AuthDeps } from '../auth/service.js';
import { signInVerifiedEmail } from '../auth/service.js';
import type { OidcConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { AppError } from '../http/errors.js';
import { hashToken } from '../lib/crypto.js';

const LOGIN_TTL_MS = 10 * 60 * 1000;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface SsoDeps {
  config: OidcConfig;
  auth: AuthDeps;
  /** The console address the identity provider sends users back to (PUBLIC_URL/authredirect). */
  redirectUri: string;
}

/** Only console paths are accepted as where to go after sign-in, never another site. */
export function safeRedirect(value: string | undefined): string {
  return value?.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : '/';
}

export class SsoClient {
  private discovered: Promise<oidc.Configuration> | undefined;

  constructor(private readonly deps: SsoDeps) {}

  private get db(): Db {
    return this.deps.auth.db;
  }

  /** Discovery runs on first use and again after a failure, so Herald starts even while the provider is down. */
  private configuration(): Promise<oidc.Configuration> {
    if (!this.discovered) {
      const { issuer, clientId, clientSecret } = this.deps.config;
      const url = new URL(issuer);
      this.discovered = oidc
        .discovery(
          url,
          clientId,
          undefined,
          clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None(),
          // Plain http only for a provider on this machine (development, tests).
          url.protocol === 'http:' && LOOPBACK.has(url.hostname) ? { execute: [oidc.allowInsecureRequests] } : undefined,
        )
        .catch((error: unknown) => {
          this.discovered = undefined;
          throw new AppError(502, 'sso.failed', { detail: (error as Error).message });
        });
    }
    return this.discovered;
  }

  /** The provider's authorization URL for a new login, and the state to bind to the browser. */
  async start(redirect: string | undefined): Promise<{ url: string; state: string }> {
    const configuration = await this.configuration();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const now = Date.now();
    await this.db.deleteFrom('sso_logins').where('expires_at', '<', now).execute();
    await this.db
      .insertInto('sso_logins')
      .values({
        state_hash: hashToken(state),
        code_verifier: codeVerifier,
        nonce,
        redirect: safeRedirect(redirect),
        expires_at: now + LOGIN_TTL_MS,
      })
      .execute();
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.deps.redirectUri,
      scope: this.deps.config.scopes,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, state };
  }

  /** Checks the callback against the login it started (state, nonce, PKCE), then signs the user in by e-mail. */
  async finish(callbackQuery: string, browserState: string | undefined): Promise<{ token: string; redirect: string }> {
    const params = new URLSearchParams(callbackQuery.replace(/^\?/, ''));
    const state = params.get('state');
    if (!state || !browserState || state !== browserState) throw new AppError(401, 'sso.expired');
    const login = await this.db
      .deleteFrom('sso_logins')
      .where('state_hash', '=', hashToken(state))
      .returningAll()
      .executeTakeFirst();
    if (!login || Number(login.expires_at) < Date.now()) throw new AppError(401, 'sso.expired');
    const configuration = await this.configuration();
    const callbackUrl = new URL(this.deps.redirectUri);
    callbackUrl.search = params.toString();
    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: login.code_verifier,
        expectedState: state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      claims = { ...(tokens.claims() ?? {}) };
      if (typeof claims.email !== 'string') {
        // Providers that follow the spec strictly put scope claims in userinfo, not in the ID token.
        const info = await oidc.fetchUserInfo(configuration, tokens.access_token, String(claims.sub));
        claims = { ...info, ...claims, email: info.email, email_verified: info.email_verified ?? claims.email_verified };
      }
    } catch (error) {
      const err = error as Error & { error_description?: string; error?: string };
      throw new AppError(401, 'sso.failed', { detail: err.error_description ?? err.error ?? err.message });
    }
    // An address the provider says it has not verified could belong to anyone.
    if (typeof claims.email !== 'string' || !claims.email.includes('@') || claims.email_verified === false) {
      throw new AppError(401, 'sso.noEmail');
    }
    const { token } = await signInVerifiedEmail(this.deps.auth, claims.email);
    return { token, redirect: login.redirect };
  }
}
