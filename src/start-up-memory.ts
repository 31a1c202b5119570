import v8 from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * What the start-up leaves in memory. Loading some 750 modules and building the app is work done
 * once, but three things V8 does with it stay behind in an idle server (docs/performance.md,
 * "Footprint", has the figures):
 *
 * - The young generation: V8 doubles the new space (two semi-spaces, 1 MiB each at first, at most
 *   16 MiB each on 64-bit) whenever more bytes have survived scavenges since the last doubling than
 *   it holds (v8/src/heap/heap.cc `CheckNewSpaceExpansionCriteria`). A start-up is all survivors,
 *   so it grew to its maximum: 32 MiB an idle server keeps. During the start-up the growth factor
 *   (`semi_space_growth_factor`, default 2, v8/src/flags/flag-definitions.h) is 1; afterwards the
 *   new space grows from its first size as the load's own survivors ask, as it always did.
 * - The optimising compiler: the module loader's functions grow hot enough over a thousand modules
 *   for TurboFan, which compiles them on background threads; the compiler's memory is freed into
 *   those threads' malloc arenas, which glibc keeps (≈ 7 MB). That code runs once: TurboFan is off
 *   during the start-up (`--no-turbofan`) and on again for the server's own hot paths.
 * - Garbage: the start-up's short-lived objects, promoted early from the small new space, leave
 *   the old generation's pages half empty. V8's memory reducer (v8/src/heap/memory-reducer.cc)
 *   runs a compacting "Mark-Compact (reduce)" on its own, but only ≈ 30 s after an idle start
 *   (`--trace-gc`); it is run here once, as the server listens (after a first start's signing key,
 *   whose generation leaves garbage too), with every page compacted (`--compact-on-every-full-gc`
 *   for that one collection). It takes tens of milliseconds, once.
 *
 * An operator's own V8 flags for the young generation or the compiler are left alone (execArgv or
 * NODE_OPTIONS naming them turns the matching part off).
 */
const YOUNG_GENERATION_FLAGS = /--(max|min)[-_]semi[-_]space[-_]size|--semi[-_]space[-_]growth[-_]factor/;
const COMPILER_FLAGS = /--(no[-_])?(turbofan|opt|always[-_]turbofan|always[-_]opt)\b/;
const DEFAULT_GROWTH_FACTOR = 2;

function given(pattern: RegExp): boolean {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((argument) => pattern.test(argument));
}

/**
 * Sets the start-up's V8 flags; the returned function restores them and collects the start-up's
 * garbage once `background` (the start's work left running after it listens) has settled (once;
 * later calls do nothing). Call it before the server's modules are loaded: their loading is most of
 * what it is about.
 */
export function leanStartUp(): (background?: Promise<unknown>) => void {
  const holdYoung = !given(YOUNG_GENERATION_FLAGS);
  const holdCompiler = !given(COMPILER_FLAGS);
  if (holdYoung) v8.setFlagsFromString("--semi-space-growth-factor=1");
  if (holdCompiler) v8.setFlagsFromString("--no-turbofan");
  let done = false;
  return (background) => {
    if (done) return;
    done = true;
    if (holdYoung) v8.setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
    if (holdCompiler) v8.setFlagsFromString("--turbofan");
    if (background) void background.then(collectStartUpGarbage, collectStartUpGarbage);
    else collectStartUpGarbage();
  };
}

/**
 * One full, compacting collection. Node gives no `gc` without `--expose-gc`; V8 installs it in
 * every context created while that flag is set, so a fresh vm context hands it over (the flag is
 * then cleared again, for contexts made later).
 */
function collectStartUpGarbage(): void {
  const exposed = typeof globalThis.gc === "function";
  if (!exposed) v8.setFlagsFromString("--expose-gc");
  const gc = exposed ? globalThis.gc : (runInNewContext("gc") as typeof globalThis.gc);
  if (!exposed) v8.setFlagsFromString("--no-expose-gc");
  if (!gc) return;
  v8.setFlagsFromString("--compact-on-every-full-gc");
  gc();
  v8.setFlagsFromString("--no-compact-on-every-full-gc");
}
