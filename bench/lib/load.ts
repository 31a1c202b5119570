import autocannon from "autocannon";

export interface LoadResult {
  /** Every answered request per second (2xx or not). */
  requestsPerSecond: number;
  /** 2xx answers per second: the figure a benchmark reports (a refused request did no work). */
  okPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Builds a fresh body per request (e.g. a new code each time); null when the pool ran dry. */
  nextBody?: () => string | null;
  /** Called with each response body (e.g. to put a rotated refresh token back into the pool). */
  onBody?: (status: number, body: string) => void;
  connections?: number;
  durationSeconds?: number;
  /** Stop after this many requests (for pools of single-use artefacts). */
  amount?: number;
}

/** One bounded autocannon run against loopback. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { nextBody, onBody } = options;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? "GET",
    headers: options.headers ?? {},
    body: options.body,
    connections: options.connections ?? 20,
    duration: options.durationSeconds ?? 5,
    amount: options.amount,
    timeout: 10,
    requests:
      nextBody || onBody
        ? [
            {
              setupRequest: (request: any) => {
                if (!nextBody) return request;
                const body = nextBody();
                if (body === null) return request;
                return { ...request, body };
              },
              onResponse: (status: number, body: string) => onBody?.(status, body),
            },
          ]
        : undefined,
  } as autocannon.Options);
  return {
    requestsPerSecond: result.requests.average,
    okPerSecond: result["2xx"] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
