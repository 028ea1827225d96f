/**
 * What happens in the sending engine that an account may want to hear about in Slack.
 * Emitting is synchronous and cheap; the listener (hooks/service.ts) writes deliveries later, off the sending path.
 */
import { EventEmitter } from 'node:events';

export interface HookEventMap {
  'campaign.started': { accountId: number; campaignId: number; name: string };
  'campaign.finished': { accountId: number; campaignId: number; name: string };
  'campaign.autoPaused': { accountId: number; campaignId: number; name: string; failed: number; settled: number };
  /** A config's circuit breaker opened after consecutive transient failures. */
  'provider.failing': { configId: number; failures: number };
  /** A config refused messages because its day or month limit is spent; period is d:YYYYMMDD or m:YYYYMM. */
  'limit.reached': { configId: number; limit: 'day' | 'month'; period: string };
  /** A balance was read from a provider; the listener compares it with the account's threshold. */
  'balance.checked': { accountId: number; configId: number; amount: number; currency: string | null };
}

export type HookEventName = keyof HookEventMap;

class HookEvents {
  private readonly emitter = new EventEmitter();

  emit<E extends HookEventName>(event: E, payload: HookEventMap[E]): void {
    this.emitter.emit(event, payload);
  }

  on<E extends HookEventName>(event: E, listener: (payload: HookEventMap[E]) => void): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }
}

/** One per process: the engine emits, every app built in the process may listen. */
export const hookEvents = new HookEvents();
