/**
 * Imported first by main.ts; V8's flags hold for every thread of the process. V8 lets the old generation grow to
 * 2–4× its live size before a full collection, which at Herald's allocation rate while sending is ~50 MB of garbage
 * per isolate; 1.5× keeps the peak RSS near the live size (~20–35 MB). 1.25× cost an e-mail campaign a full
 * collection every ~90 ms and 12% of its speed for ~6 MB less. Not imported by app.ts, so test processes (large
 * heaps, no sending) keep V8's defaults.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--heap-growing-percent=50');
