/**
 * Visited tabs and the views kept alive behind them (spec section 2, tabs strip). A tab is identified by
 * its pathname; cached routes keep the element they were first opened with, noCache routes are dropped on leave.
 */
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { affixChains, canOpen, HOME_PATH, type ResolvedRoute } from '../router/routes';

export interface VisitedView {
  path: string;
  /** Path with its query string as last seen, so going back to a tab restores its filters. */
  href: string;
  chain: ResolvedRoute[];
  params: Readonly<Record<string, string | undefined>>;
  /** The kept-alive element; absent for an affixed tab not opened yet and for noCache routes. */
  element?: ReactNode;
  /** Bumped by "refresh" to remount the view. */
  version: number;
}

export interface CurrentView {
  path: string;
  href: string;
  chain: ResolvedRoute[];
  params: Readonly<Record<string, string | undefined>>;
  element: ReactNode;
}

export interface VisitedViews {
  /** The user's tabs, already limited to routes their roles allow. */
  views: VisitedView[];
  refresh(path: string): void;
  close(path: string): void;
  closeOthers(path: string): void;
  closeAll(): void;
}

function screenOf(view: { chain: ResolvedRoute[] }): ResolvedRoute | undefined {
  return view.chain.at(-1);
}

/**
 * A screen inside a group reads "Email · Log", so the tabs of two channels can be told apart; `own` is the title the
 * screen gave itself (usePageTitle), if any.
 */
export function tabTitle(
  view: Pick<VisitedView, 'chain' | 'params'>,
  t: (key: string, options?: Record<string, unknown>) => string,
  own?: string,
): string {
  const screen = screenOf(view);
  if (!screen) return '';
  const group = view.chain.length > 2 ? view.chain.at(-2) : undefined;
  const title = own ?? t(screen.title, view.params);
  return group ? `${t(group.title)} · ${title}` : title;
}

export function isAffixed(view: VisitedView): boolean {
  return screenOf(view)?.affix === true;
}

function initialViews(): VisitedView[] {
  return affixChains().map((chain) => {
    const path = screenOf({ chain })?.fullPath ?? HOME_PATH;
    return { path, href: path, chain, params: {}, version: 0 };
  });
}

function visit(views: VisitedView[], current: CurrentView, keepAlive: boolean): VisitedView[] {
  const cacheable = keepAlive && screenOf(current)?.noCache !== true;
  const existing = views.find((view) => view.path === current.path);
  if (!existing) {
    return [...views, { ...current, element: cacheable ? current.element : undefined, version: 0 }];
  }
  return views.map((view) =>
    view === existing
      ? {
          ...view,
          href: current.href,
          params: current.params,
          element: cacheable ? (view.element ?? current.element) : undefined,
        }
      : view,
  );
}

export function useVisitedViews(current: CurrentView | undefined, roles: readonly string[], keepAlive: boolean): VisitedViews {
  const navigate = useNavigate();
  const [stored, setStored] = useState(initialViews);
  const [seen, setSeen] = useState<{ href: string; keepAlive: boolean }>();

  // Recorded during render rather than in an effect, so a newly opened screen mounts once, already in its tab.
  if (current && (current.href !== seen?.href || keepAlive !== seen.keepAlive)) {
    setSeen({ href: current.href, keepAlive });
    setStored((views) => visit(keepAlive ? views : views.map((view) => ({ ...view, element: undefined })), current, keepAlive));
  }

  const views = stored.filter((view) => canOpen(view.chain, roles));

  /** Keeps the tabs that pass; if the open one goes, opens `target` or else the last tab left. */
  function closeWhere(keepView: (view: VisitedView) => boolean, target?: VisitedView) {
    const remaining = views.filter(keepView);
    setStored((all) => all.filter(keepView));
    if (target && target.path !== current?.path) navigate(target.href);
    else if (current && !remaining.some((view) => view.path === current.path)) navigate(remaining.at(-1)?.href ?? HOME_PATH);
  }

  return {
    views,
    refresh: (path) =>
      setStored((all) => all.map((view) => (view.path === path ? { ...view, version: view.version + 1 } : view))),
    close: (path) => closeWhere((view) => view.path !== path || isAffixed(view)),
    closeOthers: (path) =>
      closeWhere(
        (view) => view.path === path || isAffixed(view),
        views.find((view) => view.path === path),
      ),
    closeAll: () => closeWhere(isAffixed),
  };
}
