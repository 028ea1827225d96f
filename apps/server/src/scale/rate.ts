/**
 * A config's messages-per-second shared by every worker process: a token bucket in Redis holding a quarter of a second
 * of tokens (a send chunk's; a second of them let up to twice the rate through after every lull),
 * refilled and taken in one Lua script on Redis's own clock, so processes on different machines agree.
 * Each channel still paces its own connection; this keeps M workers together at the config's rate instead of M times it.
 */
import type { Redis } from 'ioredis';
import type { RouteConfig } from '../engine/routing.js';

/** KEYS[1] bucket; ARGV rate/s, wanted. Answers { granted, ms until the next token }. */
const TAKE_SCRIPT = `
local rate = tonumber(ARGV[1])
local wanted = tonumber(ARGV[2])
local capacity = math.max(1, rate / 4)
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

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('heraldTakeTokens', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis = redis as RedisWithTake;
  }

  /** Resolves once `count` sends through the config fit its shared rate; a config without a rate passes at once. */
  async take(config: RouteConfig, count: number): Promise<void> {
    const rate = config.messagesPerSecond;
    if (rate === null) return;
    const key = `${this.prefix}:rate:${config.id}`;
    let left = count;
    while (left > 0) {
      const [granted, waitMs] = await this.redis.heraldTakeTokens(key, rate, left);
      left -= granted;
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, Math.max(1, waitMs)));
    }
  }
}
