/**
 * Polls `check` until it holds or `timeoutMs` runs out. A check that throws counts as not yet (a scenario may have
 * stopped the database on purpose); the last error is quoted if time runs out.
 */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const cause = lastError === undefined ? '' : ` (last check failed: ${(lastError as Error).message ?? String(lastError)})`;
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
}
