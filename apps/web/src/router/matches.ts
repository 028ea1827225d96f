/** Reads the route table entries behind the current location from React Router's matches. */
import { type UIMatch, useMatches } from 'react-router';
import type { ResolvedRoute } from './routes';

export interface RouteHandle {
  route: ResolvedRoute;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'route' in handle;
}

export interface CurrentRoute {
  /** Table entries from the section down to the screen. */
  chain: ResolvedRoute[];
  /** The screen itself, when the location is a screen rather than a redirecting section. */
  screen?: ResolvedRoute;
  params: Readonly<Record<string, string | undefined>>;
}

export function toCurrentRoute(matches: readonly UIMatch[]): CurrentRoute {
  const chain = matches
    .map((match) => match.handle)
    .filter(isRouteHandle)
    .map((handle) => handle.route);
  const last = matches.at(-1);
  const leaf = chain.at(-1);
  const isScreen = leaf !== undefined && leaf.element !== undefined && isRouteHandle(last?.handle) && last.handle.route === leaf;
  return { chain, screen: isScreen ? leaf : undefined, params: last?.params ?? {} };
}

export function useCurrentRoute(): CurrentRoute {
  return toCurrentRoute(useMatches());
}
