/**
 * Imported first by app.ts, for every thread: V8 lets the old generation grow to 2–4× its live size before a full
 * collection, which at Herald's allocation rate while sending is ~50 MB of garbage per isolate; 1.25× keeps the peak
 * RSS near the live size (~20–35 MB) at the cost of more, incremental (~5 ms) collections.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--heap-growing-percent=25');
