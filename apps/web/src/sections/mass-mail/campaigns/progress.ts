/**
 * Live campaign progress: one server-sent-events stream per console, open while a campaign screen is on
 * screen, written straight into the query cache so lists and views move without polling.
 */
import { type CampaignState, TOKEN_HEADER } from '@herald/shared';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getToken } from '../../../session/token';
import { type Campaign, type CampaignProgress, campaignKey, LISTS_KEY, logKey, type Page } from './api';

const STREAM_URL = '/api/data/campaigns/progress';
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

interface Connection {
  client: QueryClient;
  controller: AbortController;
  subscribers: number;
  /** What the previous tick said per campaign, to tell a changed state or new campaign from a count update. */
  last: Map<number, { state: CampaignState; signature: string }>;
}

let connection: Connection | undefined;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = window.setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      window.clearTimeout(timer);
      resolve();
    });
  });
}

function patch(campaign: Campaign, tick: CampaignProgress): Campaign {
  return { ...campaign, state: tick.state, total: tick.total, counts: tick.counts };
}

function apply(current: Connection, ticks: CampaignProgress[]): void {
  const { client, last } = current;
  let listsStale = false;
  for (const tick of ticks) {
    const signature = JSON.stringify([tick.state, tick.total, tick.counts]);
    const previous = last.get(tick.id);
    if (previous?.signature === signature) continue;
    last.set(tick.id, { state: tick.state, signature });
    client.setQueryData<Campaign>(campaignKey(tick.id), (campaign) => campaign && patch(campaign, tick));
    client.setQueriesData<Page<Campaign>>(
      { queryKey: LISTS_KEY },
      (page) =>
        page && { ...page, items: page.items.map((campaign) => (campaign.id === tick.id ? patch(campaign, tick) : campaign)) },
    );
    void client.invalidateQueries({ queryKey: logKey(tick.id) });
    // A new state brings times and possibly a new place in a filtered list, which only the server knows.
    if (previous?.state !== tick.state) {
      listsStale = true;
      void client.invalidateQueries({ queryKey: campaignKey(tick.id) });
    }
  }
  if (listsStale) void client.invalidateQueries({ queryKey: LISTS_KEY });
}

/** Splits the stream into events and hands each `data:` payload on. */
async function read(body: ReadableStream<Uint8Array>, onData: (data: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replaceAll('\r\n', '\n');
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data) onData(data);
    }
  }
}

// EventSource cannot send the X-Token header, so the stream is read with fetch.
async function run(current: Connection): Promise<void> {
  const { signal } = current.controller;
  let retryMs = FIRST_RETRY_MS;
  while (!signal.aborted) {
    try {
      const headers = new Headers({ Accept: 'text/event-stream' });
      const token = getToken();
      if (token) headers.set(TOKEN_HEADER, token);
      const response = await fetch(STREAM_URL, { headers, signal, cache: 'no-store' });
      if (response.ok && response.body) {
        await read(response.body, (data) => {
          retryMs = FIRST_RETRY_MS;
          const { campaigns } = JSON.parse(data) as { campaigns: CampaignProgress[] };
          apply(current, campaigns);
        });
      }
    } catch {
      // A dropped or refused stream is retried below; the session watcher deals with an expired token.
    }
    await sleep(retryMs, signal);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  }
}

function subscribe(client: QueryClient): () => void {
  if (!connection || connection.client !== client) {
    connection?.controller.abort();
    connection = { client, controller: new AbortController(), subscribers: 0, last: new Map() };
    void run(connection);
  }
  const current = connection;
  current.subscribers += 1;
  return () => {
    current.subscribers -= 1;
    if (current.subscribers > 0) return;
    current.controller.abort();
    if (connection === current) connection = undefined;
  };
}

/** Keeps the progress stream open while the calling screen is visible. */
export function useCampaignProgress(): void {
  const client = useQueryClient();
  useEffect(() => subscribe(client), [client]);
}
