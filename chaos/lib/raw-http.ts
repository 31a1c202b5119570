import http from "node:http";

/** A request on its own connection (no keep-alive), with the moments that matter for a shutdown. */
export interface RawOutcome {
  /** performance.now() when the whole request had been written to the socket (undefined: never). */
  writtenAt: number | undefined;
  answeredAt: number | undefined;
  status: number | undefined;
  error: string | undefined;
}

export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
  timeoutMs = 30_000,
): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const outcome: RawOutcome = { writtenAt: undefined, answeredAt: undefined, status: undefined, error: undefined };
    const request = http.request(url, {
      method: options.method ?? "GET",
      headers: options.headers,
      agent: false,
      timeout: timeoutMs,
    });
    request.on("finish", () => {
      outcome.writtenAt = performance.now();
    });
    request.on("response", (response) => {
      outcome.status = response.statusCode;
      response.resume();
      response.on("end", () => {
        outcome.answeredAt = performance.now();
        resolve(outcome);
      });
      response.on("error", (error) => {
        outcome.error = (error as NodeJS.ErrnoException).code ?? error.message;
        resolve(outcome);
      });
    });
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", (error) => {
      outcome.error = (error as NodeJS.ErrnoException).code ?? error.message;
      resolve(outcome);
    });
    request.end(options.body);
  });
}
