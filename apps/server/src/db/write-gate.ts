/**
 * SQLite has one write lock per file. In herald serve the API thread and the engine threads take turns at it; a
 * request waiting for it must not lose every race to an engine thread that takes it again the moment it lets go.
 * The gate counts the API statements waiting (in memory shared by the threads), and an engine thread about to begin
 * a transaction lets them go first.
 */
const WAITING = 0;
/** An engine thread waits at most this long for the API, so a steady stream of requests never stops sending. */
const ENGINE_YIELD_MAX_MS = 20;
const ENGINE_YIELD_POLL_MS = 1;

export class WriteGate {
  private readonly counter: Int32Array;

  /** `memory` comes from another thread's gate (`shared`) to join it; without it the gate is new. */
  constructor(memory?: SharedArrayBuffer) {
    this.counter = new Int32Array(memory ?? new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  }

  /** What to hand an engine thread so it joins this gate. */
  get shared(): SharedArrayBuffer {
    return this.counter.buffer as SharedArrayBuffer;
  }

  /** An API statement found the lock taken and waits for it. */
  waiting(): void {
    Atomics.add(this.counter, WAITING, 1);
  }

  /** That statement ran (or gave up). */
  done(): void {
    Atomics.sub(this.counter, WAITING, 1);
  }

  /** Before an engine thread takes the write lock: lets the API statements waiting for it go first. */
  async yieldToApi(): Promise<void> {
    const deadline = Date.now() + ENGINE_YIELD_MAX_MS;
    while (Atomics.load(this.counter, WAITING) > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, ENGINE_YIELD_POLL_MS));
  }
}
