import { useSyncExternalStore } from 'react';
import { getSnapshot, type SessionState, subscribe } from './session';

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, getSnapshot);
}
