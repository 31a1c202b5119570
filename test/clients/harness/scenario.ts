import fs from "node:fs";

/**
 * What both desktop-client tests share besides the processes: progress lines, the harness's own
 * HTTPS check of the nginx set-up, and small text helpers.
 */

const startedAt = Date.now();

/** Progress on stderr with the time since the start, so a slow or stuck step shows where it is. */
export function note(text: string): void {
  process.stderr.write(`[client test +${((Date.now() - startedAt) / 1000).toFixed(1)} s] ${text}\n`);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** An HTTPS GET that trusts the test CA only (the harness's own check of the nginx set-up). */
export async function httpsGet(
  url: string,
  caFile: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const https = await import("node:https");
  return new Promise((resolve, reject) => {
    const request = https.get(url, { ca: fs.readFileSync(caFile), headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
    });
    request.on("error", reject);
    request.setTimeout(10_000, () => request.destroy(new Error("timeout")));
  });
}

/** A log's lines that match any of `patterns`, secrets redacted, long lines cut. */
export function selectedLines(log: string, patterns: RegExp[]): string[] {
  return log
    .split("\n")
    .filter((line) => patterns.some((p) => p.test(line)))
    .map((line) => line.replace(/(access_token|refresh_token|appPassword|apppassword)(\\*"?:\s*\\*")[^"\\]+/gi, "$1$2[redacted]"))
    .map((line) => (line.length > 400 ? `${line.slice(0, 400)}…` : line));
}
