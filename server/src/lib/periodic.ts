/**
 * Runs `run` soon after start (`firstAfterMs`) and then every `everyMs`, never two at once: a slow
 * run is not overlapped by the next one. `wake()` runs it now, or once more right after the one
 * under way (several wakes meanwhile make one run). For passes that are safe on any number of
 * instances (expiry reminders, billing, certificates); their failures are the caller's to log.
 */
export function startPeriodic(
  run: () => Promise<void>,
  options: { everyMs: number; firstAfterMs: number },
): { stop(): void; wake(): void } {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = run().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        tick();
      }
    });
  };
  const first = setTimeout(tick, options.firstAfterMs);
  const timer = setInterval(() => {
    // The timer's run never queues another behind a slow one.
    if (!running) tick();
  }, options.everyMs);
  first.unref();
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
    },
    wake: tick,
  };
}
