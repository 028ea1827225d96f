/** One POST to a Slack incoming webhook: the JSON Slack expects, bounded by a timeout. */
export interface SlackBody {
  text: string;
  /** The sender name Slack shows (honoured by legacy webhooks and custom integrations). */
  username: string;
}

export interface PostOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
}

export async function postToSlack(url: string, body: SlackBody, timeoutMs: number): Promise<PostOutcome> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    // Slack answers a short text ("ok", "invalid_token"); it is worth keeping as the reason.
    const answer = (await response.text().catch(() => '')).slice(0, 200);
    if (response.ok) return { ok: true, status: response.status, error: null };
    return { ok: false, status: response.status, error: answer || `HTTP ${response.status}` };
  } catch (error) {
    const err = error as Error;
    const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
    return {
      ok: false,
      status: null,
      error: timedOut ? `no answer within ${timeoutMs} ms` : (err.cause as Error)?.message || err.message,
    };
  }
}
