/** The content area: every kept-alive tab stays mounted inside a hidden <Activity>, the open one is visible. */
import { Activity, type ReactNode } from 'react';
import type { VisitedView } from './useVisitedViews';

export function ViewHost({ views, currentPath, outlet }: { views: VisitedView[]; currentPath?: string; outlet: ReactNode }) {
  const current = views.find((view) => view.path === currentPath);
  // A screen without a tab was just closed and is being left; anything else (a redirect) renders as the router says.
  if (!current) return currentPath ? null : outlet;
  return views
    .filter((view) => view.element !== undefined || view === current)
    .map((view) => (
      <Activity key={`${view.path}@${view.version}`} mode={view === current ? 'visible' : 'hidden'}>
        <div data-testid="view" data-path={view.path}>
          {view.element ?? outlet}
        </div>
      </Activity>
    ));
}
