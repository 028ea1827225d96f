/**
 * Imported first by main.ts; V8's flags hold for every thread of the process. V8 lets the old generation grow to
 * 2–4× its live size before a full collection, which at Herald's allocation rate while sending is ~50 MB of garbage
 * per isolate; 1.25× keeps the peak RSS near the live size (~20–35 MB) at the cost of more, incremental (~5 ms)
 * collections. Not imported by app.ts, so test processes (large heaps, no sending) keep V8's defaults.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--heap-growing-percent=25');
