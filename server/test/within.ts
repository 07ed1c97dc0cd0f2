/**
 * Polls until `check` passes (a daemon applying what the panel wrote); answers how long it took,
 * or throws the check's last failure once `ms` have passed.
 */
export async function within(ms: number, check: () => Promise<void>, everyMs = 20): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      await check();
      return Date.now() - started;
    } catch (error) {
      if (Date.now() - started > ms) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}
