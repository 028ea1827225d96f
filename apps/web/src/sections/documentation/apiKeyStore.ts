/**
 * The API key the try-it panels send, kept in sessionStorage: it lives as long as the browser tab and is never
 * sent anywhere but the request the user starts. Every field showing it reads this one store.
 */
import { useSyncExternalStore } from 'react';

const STORAGE_KEY = 'herald.documentation.apiKey';
const listeners = new Set<() => void>();
/** Used only when storage is off (private mode): the key then lasts until the page is left. */
let memory = '';

function read(): string {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY) ?? '';
  } catch {
    return '';
  }
}

export function setApiKey(value: string): void {
  try {
    if (value) window.sessionStorage.setItem(STORAGE_KEY, value);
    else window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    memory = value;
  }
  for (const listener of listeners) listener();
}

function snapshot(): string {
  return read() || memory;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useApiKey(): [string, (value: string) => void] {
  return [useSyncExternalStore(subscribe, snapshot), setApiKey];
}

/** The id of the last message a try-it panel sent on this page, offered to the panels that read a message. */
let lastMessageId: number | undefined;
const messageListeners = new Set<() => void>();

export function rememberMessageId(id: number): void {
  lastMessageId = id;
  for (const listener of messageListeners) listener();
}

export function useLastMessageId(): number | undefined {
  return useSyncExternalStore(
    (listener) => {
      messageListeners.add(listener);
      return () => messageListeners.delete(listener);
    },
    () => lastMessageId,
  );
}
