/**
 * In-page error log (spec: "error logging is enabled in production"): window errors, unhandled
 * rejections and errors caught by React boundaries land here for the top bar's badge.
 */
import { useSyncExternalStore } from 'react';

export type ErrorSource = 'window' | 'promise' | 'react';

export interface LoggedError {
  id: number;
  time: number;
  source: ErrorSource;
  message: string;
  stack?: string;
  url: string;
}

/** Bounded so a render loop that throws cannot grow memory without limit. */
const MAX_ENTRIES = 100;

let entries: readonly LoggedError[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

function describe(reason: unknown): { message: string; stack?: string } {
  if (reason instanceof Error) return { message: reason.message || reason.name, stack: reason.stack };
  if (typeof reason === 'string') return { message: reason };
  try {
    return { message: JSON.stringify(reason) ?? String(reason) };
  } catch {
    return { message: String(reason) };
  }
}

export function logError(source: ErrorSource, reason: unknown, componentStack?: string): void {
  const { message, stack } = describe(reason);
  const fullStack = [stack, componentStack?.trim()].filter(Boolean).join('\n\n') || undefined;
  const entry: LoggedError = { id: nextId++, time: Date.now(), source, message, stack: fullStack, url: window.location.href };
  entries = [entry, ...entries].slice(0, MAX_ENTRIES);
  emit();
}

export function clearErrors(): void {
  entries = [];
  emit();
}

let installed = false;

/** Called once at start-up, before React renders, so errors during the first render are caught too. */
export function installErrorCapture(): void {
  if (installed) return;
  installed = true;
  window.addEventListener('error', (event) => logError('window', event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => logError('promise', event.reason));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useErrorLog(): readonly LoggedError[] {
  return useSyncExternalStore(
    subscribe,
    () => entries,
    () => entries,
  );
}
