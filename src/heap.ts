import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | undefined;

/**
 * A full garbage collection of the JavaScript heap, now. V8 grows its heap
 * for a busy piece of work (the nightly reports' rows and JSON) and keeps
 * it until a full collection, which a process doing other work may not run
 * for a long time: in `afford jobs run all`, the export after the report
 * job ran with some 60 MB of the report job's heap still resident. V8 gives
 * the function only to contexts made after `--expose-gc` is set, so one is
 * made for it, once.
 */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}
