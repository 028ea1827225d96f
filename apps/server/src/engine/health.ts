/** A circuit breaker per config: after consecutive failures that are not the recipient's fault, the config is skipped for a while. */
import { hookEvents } from '../hooks/events.js';

export const FAILURES_TO_OPEN = 5;
export const OPEN_FOR_MS = 30_000;

export class ConfigHealth {
  private readonly state = new Map<number, { failures: number; openUntil: number }>();

  allows(configId: number, now = Date.now()): boolean {
    const entry = this.state.get(configId);
    return !entry || entry.openUntil <= now;
  }

  /** When the config's breaker lets messages through again (0: it is closed). */
  reopensAt(configId: number): number {
    return this.state.get(configId)?.openUntil ?? 0;
  }

  succeeded(configId: number): void {
    this.state.delete(configId);
  }

  failed(configId: number, now = Date.now()): void {
    const entry = this.state.get(configId) ?? { failures: 0, openUntil: 0 };
    entry.failures += 1;
    if (entry.failures === FAILURES_TO_OPEN) hookEvents.emit('provider.failing', { configId, failures: entry.failures });
    if (entry.failures >= FAILURES_TO_OPEN) entry.openUntil = now + OPEN_FOR_MS;
    this.state.set(configId, entry);
  }
}
