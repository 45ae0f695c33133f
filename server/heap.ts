/**
 * The JavaScript heap's growth, set before anything else is loaded. V8 lets
 * the heap grow to as much as four times what was live after its last full
 * collection before collecting again: with some 70 MB live, a 100,000-row
 * import or dry run took the heap to 265 MB and the process past 400 MiB,
 * although what it kept stayed under 80 MB. Growing by half instead keeps
 * the process near 300 MiB through the same import, for some more (short)
 * collections; the young generation's semi-spaces are capped at 8 MB (16 by
 * default) for the same reason. Measured: bench/case-import.ts,
 * docs/performance.md.
 */
import v8 from 'node:v8';

v8.setFlagsFromString('--heap-growing-percent=50');
v8.setFlagsFromString('--max-semi-space-size=8');
