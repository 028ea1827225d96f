/** The session token lives in the Admin-Token cookie (spec section 4); kept apart so the HTTP client needs no session store. */
import { TOKEN_COOKIE } from '@herald/shared';
import Cookies from 'js-cookie';

export function getToken(): string | undefined {
  return Cookies.get(TOKEN_COOKIE) || undefined;
}

export function setToken(token: string): void {
  Cookies.set(TOKEN_COOKIE, token, { sameSite: 'lax', secure: window.location.protocol === 'https:' });
}

export function clearToken(): void {
  Cookies.remove(TOKEN_COOKIE);
}
