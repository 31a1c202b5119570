import { randomBytes } from "node:crypto";
import { CLIENT, Deployment, USER } from "./lib/deployment.js";
import { basic, exchange, FORM, sleep } from "./lib/http.js";
import { type RawOutcome, rawRequest } from "./lib/raw-http.js";
import { Report } from "./lib/report.js";
import type { ScenarioContext } from "./lib/scenario.js";

const WORKERS = 12;

/**
 * SIGTERM under load: clients keep sending (each request on its own connection) while the
 * server is told to stop. Every request fully sent before the signal must be answered, and the
 * process must exit 0; the time from the signal to the exit is measured (the shutdown deadline).
 */
export async function sigtermUnderLoad(context: ScenarioContext): Promise<Report> {
  const report = new Report(`SIGTERM under load (${context.database})`);
  const deployment = await Deployment.create(context.database, context.postgresAdminUrl);
  try {
    const codes = await deployment.mint("code", Math.max(2000, context.durationSeconds * 60));
    await deployment.start();
    const base = deployment.base;
    const first = await exchange(`${base}/index.php/apps/oauth2/api/v1/token`, {
      method: "POST",
      headers: { authorization: basic(CLIENT.id, CLIENT.secret), "content-type": FORM },
      body: `grant_type=authorization_code&code=${codes.pop()}&redirect_uri=${encodeURIComponent(CLIENT.redirect)}`,
    });
    const accessToken =
      first.answered && first.status === 200 ? (JSON.parse(first.body) as { access_token: string }).access_token : "";
    const runId = randomBytes(4).toString("hex");
    let n = 0;
    const nextRequest = (): [string, Parameters<typeof rawRequest>[1]] => {
      n += 1;
      switch (n % 4) {
        case 0: {
          const event = {
            app: "files",
            type: "file_changed",
            affecteduser: USER,
            subject: "changed_self",
            object_type: "files",
            object_id: n,
          };
          const headers = {
            authorization: deployment.adminAuthorization,
            "content-type": "application/json",
            "idempotency-key": `${runId}-${n}`,
          };
          return [`${base}/index.php/apps/activity/api/v2/events`, { method: "POST", headers, body: JSON.stringify(event) }];
        }
        case 1:
          return [
            `${base}/index.php/apps/oauth2/api/v1/token`,
            {
              method: "POST",
              headers: { authorization: basic(CLIENT.id, CLIENT.secret), "content-type": FORM },
              body: `grant_type=authorization_code&code=${codes.pop() ?? "none"}&redirect_uri=${encodeURIComponent(CLIENT.redirect)}`,
            },
          ];
        case 2:
          return [`${base}/index.php/apps/oauth2/api/v1/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } }];
        default:
          return [
            `${base}/ocs/v2.php/apps/activity/api/v2/activity/all?format=json&limit=50`,
            { headers: { authorization: `Bearer ${accessToken}` } },
          ];
      }
    };
    const outcomes: RawOutcome[] = [];
    let exited = false;
    const worker = async () => {
      while (!exited) {
        const [url, options] = nextRequest();
        const outcome = await rawRequest(url, options);
        outcomes.push(outcome);
        if (outcome.error) await sleep(20);
      }
    };
    const workers = Array.from({ length: WORKERS }, worker);
    await sleep(Math.max(3, context.durationSeconds / 6) * 1000);
    const signalAt = performance.now();
    const stopped = await deployment.terminate();
    exited = true;
    await Promise.all(workers);

    const before = outcomes.filter((o) => o.writtenAt !== undefined && o.writtenAt < signalAt);
    const unanswered = before.filter((o) => o.status === undefined);
    const inFlight = before.filter((o) => o.answeredAt !== undefined && o.answeredAt > signalAt);
    const after = outcomes.filter((o) => o.writtenAt === undefined || o.writtenAt >= signalAt);
    const byKind = (list: RawOutcome[]) => {
      const kinds = new Map<string, number>();
      for (const o of list) kinds.set(o.error ?? "?", (kinds.get(o.error ?? "?") ?? 0) + 1);
      return [...kinds].map(([k, v]) => `${k}: ${v}`).join(", ") || "none";
    };
    report.figure("requests before the signal", before.length);
    report.figure("of which in flight at the signal (answered after it)", inFlight.length);
    report.figure(
      "requests after the signal: answered / refused",
      `${after.filter((a) => a.status !== undefined).length} / ${after.filter((a) => a.status === undefined).length}`,
    );
    report.figure("time from SIGTERM to exit", Math.round(stopped.ms), "ms");
    report.figure("sent before the signal, unanswered, by error", byKind(unanswered));
    report.figure("sent after the signal, refused, by error", byKind(after.filter((a) => a.status === undefined)));
    const fiveHundreds = outcomes.filter((o) => o.status !== undefined && o.status >= 500 && o.status !== 503).length;
    report.check("every request sent before SIGTERM was answered", unanswered.length === 0, `${unanswered.length} unanswered`);
    report.check("no 5xx other than 503", fiveHundreds === 0, `${fiveHundreds}`);
    report.check("the process exits 0", stopped.code === 0, `code ${stopped.code}, signal ${stopped.signal}`);
  } finally {
    await deployment.cleanup();
  }
  return report;
}
