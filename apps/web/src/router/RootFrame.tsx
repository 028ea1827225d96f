/** Wraps every route, public or private, so the floating Feedback button is on every screen. */
import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';

// Loaded after the screen itself, so its form and upload code stay out of the first paint.
const FeedbackButton = lazy(() => import('../feedback/FeedbackButton').then((module) => ({ default: module.FeedbackButton })));

export function RootFrame() {
  return (
    <>
      <Outlet />
      <Suspense fallback={null}>
        <FeedbackButton />
      </Suspense>
    </>
  );
}
