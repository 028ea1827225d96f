/** Mobile mode below the spec's 992 px breakpoint. */
import { MOBILE_BREAKPOINT_PX } from '@herald/shared';
import { useSyncExternalStore } from 'react';

const query = `(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`;

function subscribe(listener: () => void): () => void {
  const media = window.matchMedia(query);
  media.addEventListener('change', listener);
  return () => media.removeEventListener('change', listener);
}

export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}
