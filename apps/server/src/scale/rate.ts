/**
 * A config's messages-per-second shared by every worker process: a token bucket in Redis (one second of burst),
 * refilled and taken in one Lua script on Redis's own clock, so processes on different machines agree.
 * Each channel still paces its own connection; this keeps M workers together at the config's rate instead of M times it.
 */
import type { Redis } from 'ioredis';
import type { RouteConfig } from '../engine/routing.js';

/** KEYS[1] bucket; ARGV rate/s, wanted. Answers { granted, ms until the next token }. */
const TAKE_SCRIPT = `
local rate = tonumber(ARGV[1])
local wanted = tonumber(ARGV[2])
local capacity = math.max(1, rate)
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + (now - at) * rate / 1000)
local granted = math.min(wanted, math.floor(tokens))
tokens = tokens - granted
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], 60000)
local wait = 0
if granted < wanted then wait = math.ceil((1 - (tokens - math.floor(tokens))) * 1000 / rate) end
return { granted, wait }
`;

type RedisWithTake = Redis & { heraldTakeTokens(key: string, rate: number, wanted: number): Promise<[number, number]> };

export class SharedRate {
  private readonly redis: RedisWithTake;
  /** Per config, its rate as last read from the row's settings (they change only with the row). */
  private readonly rates = new Map<number, { settings: string; rate: number | null }>();

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('heraldTakeTokens', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis = redis as RedisWithTake;
  }

  /** Resolves once `count` sends through the config fit its shared rate; a config without a rate passes at once. */
  async take(config: RouteConfig, count: number): Promise<void> {
    const rate = this.rateOf(config);
    if (rate === null) return;
    const key = `${this.prefix}:rate:${config.id}`;
    let left = count;
    while (left > 0) {
      const [granted, waitMs] = await this.redis.heraldTakeTokens(key, rate, left);
      left -= granted;
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, Math.max(1, waitMs)));
    }
  }

  private rateOf(config: RouteConfig): number | null {
    const cached = this.rates.get(config.id);
    if (cached && cached.settings === config.row.settings) return cached.rate;
    const value = (JSON.parse(config.row.settings) as { messagesPerSecond?: unknown }).messagesPerSecond;
    const rate = typeof value === 'number' && value > 0 ? value : null;
    this.rates.set(config.id, { settings: config.row.settings, rate });
    return rate;
  }
}
