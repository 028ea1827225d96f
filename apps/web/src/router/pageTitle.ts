/**
 * Titles a screen gives itself once it knows them (a campaign's name instead of "Campaign 12"), by pathname: its tab,
 * its breadcrumb and the window title read them before the route table's.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';

let titles: ReadonlyMap<string, string> = new Map();
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function change(path: string, title: string | undefined): void {
  if (titles.get(path) === title) return;
  const next = new Map(titles);
  if (title === undefined) next.delete(path);
  else next.set(path, title);
  titles = next;
  for (const listener of listeners) listener();
}

/** Names the current screen; undefined gives it back the route table's title. */
export function usePageTitle(title: string | undefined): void {
  const { pathname } = useLocation();
  useEffect(() => change(pathname, title), [pathname, title]);
}

/** The titles screens gave themselves, by pathname. */
export function usePageTitles(): ReadonlyMap<string, string> {
  return useSyncExternalStore(subscribe, () => titles);
}
