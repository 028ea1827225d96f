/** Undo and redo for the builder document; a run of edits to one field (typing) counts as a single step. */
import { useState } from 'react';

const LIMIT = 100;
/** Edits of the same field closer together than this join the previous step. */
const JOIN_MS = 1000;

interface State<T> {
  past: T[];
  present: T;
  future: T[];
  /** The field the last step changed and when, for joining keystrokes. */
  last?: { key: string; at: number };
}

export interface History<T> {
  value: T;
  set: (update: (current: T) => T, joinKey?: string) => void;
  undo: () => void;
  redo: () => void;
  canUndo: boolean;
  canRedo: boolean;
}

export function useHistory<T>(initial: () => T): History<T> {
  const [state, setState] = useState<State<T>>(() => ({ past: [], present: initial(), future: [] }));
  return {
    value: state.present,
    set: (update, joinKey) =>
      setState((current) => {
        const next = update(current.present);
        if (next === current.present) return current;
        const now = Date.now();
        const join = joinKey !== undefined && current.last?.key === joinKey && now - current.last.at < JOIN_MS;
        return {
          past: join ? current.past : [...current.past, current.present].slice(-LIMIT),
          present: next,
          future: [],
          last: joinKey === undefined ? undefined : { key: joinKey, at: now },
        };
      }),
    undo: () =>
      setState((current) => {
        const previous = current.past.at(-1);
        if (previous === undefined) return current;
        return { past: current.past.slice(0, -1), present: previous, future: [current.present, ...current.future] };
      }),
    redo: () =>
      setState((current) => {
        const [next, ...rest] = current.future;
        if (next === undefined) return current;
        return { past: [...current.past, current.present], present: next, future: rest };
      }),
    canUndo: state.past.length > 0,
    canRedo: state.future.length > 0,
  };
}
