/**
 * Imported first by app.ts, for every thread: V8 lets the old generation grow to 2–4× its live size before a full collection,
 * which at Herald's allocation rate while sending means ~100 MB of garbage per isolate; 1.5× keeps the peak RSS
 * near the live size for a few more (incremental, ~5 ms) collections.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--heap-growing-percent=50');
