/** The session of spec section 4 — token, user info and roles — as a tiny external store read through useSession. */
import { DEFAULT_AVATAR, LANGUAGES, type Language, type Profile } from '@herald/shared';
import { ApiError, http, reportError } from '../api/http';
import i18n, { changeLanguage, currentLanguage } from '../i18n';
import { clearToken, getToken, setToken } from './token';

export { getToken } from './token';

export interface UserInfo {
  username: string;
  name: string;
  avatar: string;
  roles: string[];
  profile: Profile;
  timeZone: { id: string; offset: number; utc: string };
  language: Language | null;
}

export interface SessionState {
  token?: string;
  user?: UserInfo;
  roles: string[];
  /** anonymous: no token; loading: a token whose user info is not in yet; ready: user info loaded. */
  status: 'anonymous' | 'loading' | 'ready';
}

export interface SignupInput {
  email: string;
  password: string;
  timeZone: { id: string; offset: number };
  role: Profile;
}

function startingState(): SessionState {
  const token = getToken();
  return token ? { token, roles: [], status: 'loading' } : { roles: [], status: 'anonymous' };
}

let state: SessionState = startingState();
const listeners = new Set<() => void>();

function setState(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getSnapshot(): SessionState {
  return state;
}

/** Clears the session without calling the server. */
export function forcedSignOut(): void {
  clearToken();
  setState({ roles: [], status: 'anonymous' });
}

function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** A language picked on a public page before signing in, kept for the sign-in that follows (in this tab). */
const CHOSEN_LANGUAGE_KEY = 'herald-chosen-language';

export function rememberChosenLanguage(language: Language): void {
  sessionStorage.setItem(CHOSEN_LANGUAGE_KEY, language);
}

async function fetchUser(): Promise<UserInfo> {
  setState({ ...state, token: getToken(), status: 'loading' });
  try {
    const user = await http.get<UserInfo | undefined>('/data/users', undefined, { silent: true });
    if (typeof user !== 'object' || user === null) throw new Error(i18n.t('session:userInfoMissing'));
    if (!Array.isArray(user.roles) || user.roles.length === 0) throw new Error(i18n.t('session:rolesMissing'));
    setState({ token: getToken(), user, roles: user.roles, status: 'ready' });
    const chosen = sessionStorage.getItem(CHOSEN_LANGUAGE_KEY);
    sessionStorage.removeItem(CHOSEN_LANGUAGE_KEY);
    if (isLanguage(chosen)) {
      // Picked on the login page just now: it becomes the account's language.
      if (chosen !== user.language)
        await http.post('/data/users/change-language', { language: chosen }, { silent: true }).catch(() => undefined);
    } else if (isLanguage(user.language) && user.language !== currentLanguage()) {
      // Otherwise the language saved on the account wins over this browser's cookie.
      await changeLanguage(user.language);
    }
    return user;
  } catch (error) {
    // A refused token needs no toast: signing out sends the guarded screens to /login.
    if (!(error instanceof ApiError && error.status === 401)) reportError(error);
    forcedSignOut();
    throw error;
  }
}

let pending: Promise<UserInfo> | undefined;

/** Fetches user info into the session; on any failure the session is signed out (the guard then shows /login). */
export function loadUser(): Promise<UserInfo> {
  pending ??= fetchUser().finally(() => {
    pending = undefined;
  });
  return pending;
}

/** Adopts a token from the server (login, signup, profile switch, single sign-on) and loads its user. */
export function signInWithToken(token: string): Promise<UserInfo> {
  setToken(token);
  return loadUser();
}

export async function login(username: string, password: string): Promise<UserInfo> {
  const answer = await http.postForm<{ token: string }>('/login', { username: username.trim(), password }, { silent: true });
  return signInWithToken(answer.token);
}

/** Signs up with the default avatar, the chosen time zone and the current interface language. */
export async function signup(input: SignupInput): Promise<UserInfo> {
  const answer = await http.post<{ token: string }>(
    '/data/users',
    {
      email: input.email.trim(),
      password: input.password,
      timeZone: input.timeZone,
      avatar: DEFAULT_AVATAR,
      role: input.role,
      language: currentLanguage(),
    },
    { silent: true },
  );
  return signInWithToken(answer.token);
}

export async function logout(): Promise<void> {
  try {
    await http.get('/logout', undefined, { silent: true });
  } catch {
    // The local session ends whether or not the server heard about it.
  }
  forcedSignOut();
}

/** The server answers a new token for the other profile and ends the old one. */
export async function switchProfile(profile: Profile): Promise<UserInfo> {
  const answer = await http.post<{ token: string }>('/data/users/switch-profile', { profile });
  return signInWithToken(answer.token);
}
