/** Settings > Notifications: the events a Slack hook can announce and the rules of its form. */
import type { RuleFailure } from './validation.js';

export const NOTIFY_EVENTS = [
  'campaign.started',
  'campaign.finished',
  'campaign.autoPaused',
  'provider.failing',
  'balance.low',
  'limit.reached',
] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

export const SLACK_SENDER_DEFAULT = 'Herald';
export const SLACK_SENDER_MAX = 80;
export const SLACK_URL_MAX = 500;

/** Hosts that never leave the machine: a receiver there (a local relay, a test) may use plain http. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Slack incoming webhooks are https only; anything else would send the team's messages in clear. */
export function checkSlackUrl(value: string | undefined | null): RuleFailure | null {
  const url = (value ?? '').trim();
  if (!url) return null;
  if (url.length > SLACK_URL_MAX) return { key: 'validation.tooLong', params: { n: SLACK_URL_MAX } };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { key: 'hooks.slackUrlHttps' };
  }
  if (parsed.protocol === 'https:' && parsed.hostname) return null;
  return parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname) ? null : { key: 'hooks.slackUrlHttps' };
}

export function checkSenderName(value: string | undefined | null): RuleFailure | null {
  const name = (value ?? '').trim();
  if (!name) return { key: 'validation.mandatory' };
  return name.length > SLACK_SENDER_MAX ? { key: 'validation.tooLong', params: { n: SLACK_SENDER_MAX } } : null;
}
