/** One HTTP exchange as the scenarios see it: an answer, or no answer (the connection failed). */
export type Exchange =
  | { answered: true; status: number; body: string; headers: Headers; ms: number }
  | { answered: false; error: string; ms: number };

export const FORM = "application/x-www-form-urlencoded";

/** fetch with a deadline; a refused, reset or timed-out connection is "not answered", never thrown. */
export async function exchange(url: string, init: RequestInit = {}, timeoutMs = 10_000): Promise<Exchange> {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const body = await response.text();
    return { answered: true, status: response.status, body, headers: response.headers, ms: performance.now() - started };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { answered: false, error: cause?.code ?? cause?.message ?? (error as Error).name, ms: performance.now() - started };
  }
}

export function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
