/**
 * Runs `run` soon after start (`firstAfterMs`) and then every `everyMs`, never two at once: a slow
 * run is not overlapped by the next one. For passes that are safe on any number of instances
 * (expiry reminders, billing); their failures are the caller's to log.
 */
export function startPeriodic(run: () => Promise<void>, options: { everyMs: number; firstAfterMs: number }): { stop(): void } {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= run().finally(() => {
      running = undefined;
    });
  };
  const first = setTimeout(tick, options.firstAfterMs);
  const timer = setInterval(tick, options.everyMs);
  first.unref();
  timer.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
