import { randomBytes } from "node:crypto";
import { sha256Hex } from "../src/crypto/secrets.js";
import { CLIENT, Deployment, USER } from "./lib/deployment.js";
import { basic, exchange, FORM, sleep } from "./lib/http.js";
import { type RawOutcome, rawRequest } from "./lib/raw-http.js";
import { Report } from "./lib/report.js";
import type { ScenarioContext } from "./lib/scenario.js";

const WORKERS = 12;
/** The race between a request arriving and the shutdown is narrow: several signals give it a chance to show. */
const ROUNDS = 5;

/** What a request may leave behind, to look for when it was not answered. */
type Effect = { kind: "publish"; key: string } | { kind: "code"; code: string } | { kind: "read" };
type Sent = RawOutcome & { effect: Effect };

interface Round {
  before: number;
  inFlight: number;
  unanswered: Sent[];
  /** Unanswered requests whose effect is in the database: processed, and the answer lost. */
  halfDone: number;
  after: RawOutcome[];
  fiveHundreds: number;
  exit: { code: number | null; signal: string | null; ms: number };
}

/**
 * SIGTERM under load, five times: clients keep sending (each request on its own connection)
 * while the server is told to stop. A request the server began to handle must be answered: an
 * unanswered one must have left no trace (its publish's idempotency key absent, its code unused).
 * Connections still waiting in the kernel's accept queue when the listener closes are reset
 * without being read; such a request was never handled, and a client retries it safely, as it
 * would against any server that stops listening (nginx does the same). The process must exit 0;
 * the time from the signal to the exit is measured (the shutdown deadline).
 */
export async function sigtermUnderLoad(context: ScenarioContext): Promise<Report> {
  const report = new Report(`SIGTERM under load (${context.database})`);
  const deployment = await Deployment.create(context.database, context.postgresAdminUrl);
  try {
    const codes = await deployment.mint("code", Math.max(2000, context.durationSeconds * 60));
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await round(deployment, codes, Math.max(2, context.durationSeconds / 15)));
    const kinds = (list: RawOutcome[]) => {
      const counts = new Map<string, number>();
      for (const o of list) counts.set(o.error ?? "?", (counts.get(o.error ?? "?") ?? 0) + 1);
      return [...counts].map(([k, v]) => `${k}: ${v}`).join(", ") || "none";
    };
    const all = (f: (r: Round) => number) => rounds.map(f).join(", ");
    report.figure(
      "requests sent before the signal, per round",
      all((r) => r.before),
    );
    report.figure(
      "of which in flight at the signal (answered after it)",
      all((r) => r.inFlight),
    );
    report.figure(
      "of which unanswered",
      all((r) => r.unanswered.length),
    );
    report.figure("unanswered, by error", kinds(rounds.flatMap((r) => r.unanswered)));
    report.figure(
      "of which handled (their write is in the database)",
      all((r) => r.halfDone),
    );
    report.figure(
      "sent after the signal: answered / refused (by error)",
      `${rounds.reduce((n, r) => n + r.after.filter((a) => a.status !== undefined).length, 0)} / ${kinds(rounds.flatMap((r) => r.after.filter((a) => a.status === undefined)))}`,
    );
    report.figure(
      "time from SIGTERM to exit, per round (ms)",
      all((r) => Math.round(r.exit.ms)),
    );
    const halfDone = rounds.reduce((n, r) => n + r.halfDone, 0);
    const fiveHundreds = rounds.reduce((n, r) => n + r.fiveHundreds, 0);
    report.check(
      "every request handled before SIGTERM was answered (an unanswered one left no trace)",
      halfDone === 0,
      `${halfDone} handled but unanswered`,
    );
    report.check("no 5xx other than 503", fiveHundreds === 0, `${fiveHundreds}`);
    const exits = rounds.map((r) => r.exit.code ?? r.exit.signal).join(", ");
    report.check(
      "the process exits 0",
      rounds.every((r) => r.exit.code === 0),
      exits,
    );
  } finally {
    await deployment.cleanup();
  }
  return report;
}

async function round(deployment: Deployment, codes: string[], loadSeconds: number): Promise<Round> {
  await deployment.start();
  const base = deployment.base;
  const clientAuth = basic(CLIENT.id, CLIENT.secret);
  const redirect = encodeURIComponent(CLIENT.redirect);
  const first = await exchange(`${base}/index.php/apps/oauth2/api/v1/token`, {
    method: "POST",
    headers: { authorization: clientAuth, "content-type": FORM },
    body: `grant_type=authorization_code&code=${codes.pop()}&redirect_uri=${redirect}`,
  });
  const accessToken =
    first.answered && first.status === 200 ? (JSON.parse(first.body) as { access_token: string }).access_token : "";
  const bearer = { authorization: `Bearer ${accessToken}` };
  const runId = randomBytes(4).toString("hex");
  let n = 0;
  // A mix of writes and reads: a publish, a code exchange, userinfo, an activity page.
  const nextRequest = (): [string, Parameters<typeof rawRequest>[1], Effect] => {
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
        return [
          `${base}/index.php/apps/activity/api/v2/events`,
          { method: "POST", headers, body: JSON.stringify(event) },
          { kind: "publish", key: headers["idempotency-key"] },
        ];
      }
      case 1: {
        const code = codes.pop() ?? "none";
        const body = `grant_type=authorization_code&code=${code}&redirect_uri=${redirect}`;
        return [
          `${base}/index.php/apps/oauth2/api/v1/token`,
          { method: "POST", headers: { authorization: clientAuth, "content-type": FORM }, body },
          { kind: "code", code },
        ];
      }
      case 2:
        return [`${base}/index.php/apps/oauth2/api/v1/userinfo`, { headers: bearer }, { kind: "read" }];
      default:
        return [
          `${base}/ocs/v2.php/apps/activity/api/v2/activity/all?format=json&limit=50`,
          { headers: bearer },
          { kind: "read" },
        ];
    }
  };
  const outcomes: Sent[] = [];
  let exited = false;
  const worker = async () => {
    while (!exited) {
      const [url, options, effect] = nextRequest();
      const outcome = { ...(await rawRequest(url, options)), effect };
      outcomes.push(outcome);
      if (outcome.error) await sleep(20);
    }
  };
  const workers = Array.from({ length: WORKERS }, worker);
  await sleep(loadSeconds * 1000);
  const signalAt = performance.now();
  const exit = await deployment.terminate();
  exited = true;
  await Promise.all(workers);
  const before = outcomes.filter((o) => o.writtenAt !== undefined && o.writtenAt < signalAt);
  const unanswered = before.filter((o) => o.status === undefined);
  let halfDone = 0;
  for (const { effect } of unanswered) if (await leftATrace(deployment, effect)) halfDone++;
  return {
    before: before.length,
    inFlight: before.filter((o) => o.answeredAt !== undefined && o.answeredAt > signalAt).length,
    unanswered,
    halfDone,
    after: outcomes.filter((o) => o.writtenAt === undefined || o.writtenAt >= signalAt),
    fiveHundreds: outcomes.filter((o) => o.status !== undefined && o.status >= 500 && o.status !== 503).length,
    exit,
  };
}

/** Did this request's write reach the database? */
async function leftATrace(deployment: Deployment, effect: Effect): Promise<boolean> {
  const db = deployment.storage.db;
  if (effect.kind === "publish") {
    const row = await db
      .selectFrom("idempotency_keys")
      .select("idempotency_key")
      .where("idempotency_key", "=", effect.key)
      .executeTakeFirst();
    return row !== undefined;
  }
  if (effect.kind === "code") {
    const row = await db
      .selectFrom("oauth2_codes")
      .select("consumed_at")
      .where("code_hash", "=", sha256Hex(effect.code))
      .executeTakeFirst();
    return row?.consumed_at !== null && row?.consumed_at !== undefined;
  }
  return false;
}
