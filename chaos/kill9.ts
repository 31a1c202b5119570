import { randomBytes } from "node:crypto";
import { sha256Hex } from "../src/crypto/secrets.js";
import { CLIENT, Deployment, USER } from "./lib/deployment.js";
import { basic, exchange, FORM, sleep } from "./lib/http.js";
import { checkDatabaseIntegrity } from "./lib/integrity.js";
import { log, Report } from "./lib/report.js";
import type { ScenarioContext } from "./lib/scenario.js";

const TOKEN = "/index.php/apps/oauth2/api/v1/token";
const EVENTS = "/index.php/apps/activity/api/v2/events";
const KILLS = 6;
/** Pause between a worker's requests: keeps the load (and the CPU it costs) modest on a shared machine. */
const PACE_MS = 5;

interface Acknowledged {
  access: string;
  refresh: string;
}

/**
 * kill -9 under load: code exchanges, refresh rotations and activity publishes (with idempotency
 * keys, retried after a lost answer: a kill, or a client that stops waiting) run while the server is
 * SIGKILLed and restarted six times.
 * Afterwards every acknowledged write must be in the database exactly once, no replayed code may
 * have been accepted (codes consumed before a crash are presented again after the restart), and
 * the database must pass its own integrity checks.
 */
export async function kill9(context: ScenarioContext): Promise<Report> {
  const report = new Report(`kill -9 under load (${context.database})`);
  // A refresh retried after a lost answer gets the same pair within the grace window instead of
  // revoking the grant (docs/oauth2.md): the window a client needs to survive a crash.
  const deployment = await Deployment.create(context.database, context.postgresAdminUrl, { "oauth2.refresh_reuse_grace": 60 });
  try {
    await run(deployment, context.durationSeconds, report);
  } finally {
    await deployment.cleanup();
  }
  return report;
}

async function run(deployment: Deployment, seconds: number, report: Report): Promise<void> {
  const codes = await deployment.mint("code", Math.max(2000, Math.round(seconds * 150)));
  const chains = (await deployment.mint("refresh", 40)).map((token) => ({
    current: token,
    acked: [] as Acknowledged[],
    broken: false,
  }));
  await deployment.start();
  const base = deployment.base;
  const started = Date.now();
  const stopAt = started + seconds * 1000;
  const clientAuth = basic(CLIENT.id, CLIENT.secret);
  const tokenRequest = (body: string) =>
    exchange(`${base}${TOKEN}`, { method: "POST", headers: { authorization: clientAuth, "content-type": FORM }, body });
  const stats = {
    answers5xx: 0,
    unexpected: [] as string[],
    codeUnknown: 0,
    refreshRetries: 0,
    publishRetries: 0,
    replayedAnswers: 0,
  };
  const acknowledgedCodes: Array<Acknowledged & { code: string }> = [];
  const toReplay: Array<Acknowledged & { code: string }> = [];
  const replayed: Array<Acknowledged & { code: string }> = [];
  let replaysAccepted = 0;
  let codesExchanged = 0;

  const noteAnswer = (what: string, status: number, body: string) => {
    if (status >= 500) stats.answers5xx += 1;
    if (stats.unexpected.length < 10) stats.unexpected.push(`${what} ${status} ${body.slice(0, 120)}`);
  };

  const codeWorker = async () => {
    while (Date.now() < stopAt) {
      const code = codes.pop();
      if (code === undefined) return;
      const answer = await tokenRequest(
        `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(CLIENT.redirect)}`,
      );
      if (!answer.answered) {
        // The answer is lost: the code may or may not be consumed. A client cannot know; it starts over.
        stats.codeUnknown += 1;
        await sleep(100);
        continue;
      }
      if (answer.status !== 200) {
        noteAnswer("code exchange", answer.status, answer.body);
        continue;
      }
      const tokens = JSON.parse(answer.body) as { access_token: string; refresh_token: string };
      const entry = { code, access: tokens.access_token, refresh: tokens.refresh_token };
      // One in ten consumed codes is presented again after the next restart.
      codesExchanged += 1;
      if (codesExchanged % 10 === 0) toReplay.push(entry);
      else acknowledgedCodes.push(entry);
      await sleep(PACE_MS);
    }
  };

  const refreshWorker = async (mine: typeof chains) => {
    for (const chain of mine) {
      while (Date.now() < stopAt && !chain.broken) {
        let answer = await tokenRequest(`grant_type=refresh_token&refresh_token=${chain.current}`);
        // Lost answer: retry the same token until the server answers (the grace window gives the same pair).
        while (!answer.answered && Date.now() < stopAt + 30_000) {
          stats.refreshRetries += 1;
          await sleep(100);
          answer = await tokenRequest(`grant_type=refresh_token&refresh_token=${chain.current}`);
        }
        if (!answer.answered) break;
        if (answer.status !== 200) {
          noteAnswer("refresh", answer.status, answer.body);
          chain.broken = true;
          break;
        }
        const tokens = JSON.parse(answer.body) as { access_token: string; refresh_token: string };
        chain.acked.push({ access: tokens.access_token, refresh: tokens.refresh_token });
        chain.current = tokens.refresh_token;
        await sleep(PACE_MS);
      }
    }
  };

  const runId = randomBytes(4).toString("hex");
  const published: Array<{ objectId: number; ids: number[] }> = [];
  const unresolved: number[] = [];
  let nextObject = 1;
  const publishWorker = async () => {
    while (Date.now() < stopAt) {
      const objectId = nextObject++;
      const event = {
        app: "files",
        type: "file_changed",
        affecteduser: USER,
        user: USER,
        subject: "changed_self",
        object_type: "files",
        object_id: objectId,
        object_name: `/chaos/${objectId}`,
      };
      const body = JSON.stringify([event, { ...event, subject: "created_self", type: "file_created" }]);
      const headers = {
        authorization: deployment.adminAuthorization,
        "content-type": "application/json",
        "idempotency-key": `chaos-${runId}-${objectId}`,
      };
      // Besides the kills, one publish in four loses its answer on purpose: the client gives up after
      // 1–4 ms, usually after the server received the request, so it commits an answer nobody reads.
      const patience = objectId % 4 === 0 ? 1 + (objectId % 16) / 4 : 10_000;
      let answer = await exchange(`${base}${EVENTS}`, { method: "POST", headers, body }, patience);
      while (!answer.answered && Date.now() < stopAt + 30_000) {
        stats.publishRetries += 1;
        await sleep(100);
        answer = await exchange(`${base}${EVENTS}`, { method: "POST", headers, body });
      }
      if (!answer.answered) {
        unresolved.push(objectId);
        continue;
      }
      if (answer.status !== 201) {
        noteAnswer("publish", answer.status, answer.body);
        continue;
      }
      if (answer.headers.get("idempotent-replayed") === "true") stats.replayedAnswers += 1;
      published.push({ objectId, ids: (JSON.parse(answer.body) as { ids: number[] }).ids });
      await sleep(PACE_MS);
    }
  };

  const killer = async () => {
    const downtimes: number[] = [];
    for (let k = 1; k <= KILLS; k++) {
      const at = started + (k * seconds * 1000) / (KILLS + 1);
      await sleep(Math.max(0, at - Date.now()));
      await deployment.kill();
      const down = performance.now();
      await deployment.start();
      downtimes.push(performance.now() - down);
      // Codes consumed before the crash, presented again now: each must be refused (and its grant revoked).
      for (const entry of toReplay.splice(0)) {
        const answer = await tokenRequest(
          `grant_type=authorization_code&code=${entry.code}&redirect_uri=${encodeURIComponent(CLIENT.redirect)}`,
        );
        if (!answer.answered) continue;
        if (answer.status === 200) replaysAccepted += 1;
        replayed.push(entry);
      }
      log(`    kill ${k}/${KILLS}: restarted in ${Math.round(downtimes.at(-1)!)} ms`);
    }
    return downtimes;
  };

  const half = chains.length / 2;
  const [downtimes] = await Promise.all([
    killer(),
    codeWorker(),
    codeWorker(),
    refreshWorker(chains.slice(0, half)),
    refreshWorker(chains.slice(half)),
    publishWorker(),
    publishWorker(),
  ]);
  // Marked for a replay after the last restart: checked like every other acknowledged exchange.
  acknowledgedCodes.push(...toReplay.splice(0));
  const stopped = await deployment.terminate();
  report.figure("server kills (SIGKILL) and restarts", deployment.starts - 1);
  report.figure("restart time, median", Math.round(downtimes.sort((a, b) => a - b)[Math.floor(downtimes.length / 2)] ?? 0), "ms");
  report.check(
    "the server exits 0 on SIGTERM after the run",
    stopped.code === 0,
    `code ${stopped.code}, signal ${stopped.signal}`,
  );
  report.check(
    "no answer was a 5xx",
    stats.answers5xx === 0,
    `${stats.answers5xx}; first unexpected: ${stats.unexpected.join(" | ")}`,
  );
  await verifyCodes(deployment, report, {
    exchanged: codesExchanged,
    acknowledgedCodes,
    replayed,
    replaysAccepted,
    unknown: stats.codeUnknown,
  });
  await verifyRefreshChains(deployment, report, chains, stats.refreshRetries);
  await verifyPublishes(deployment, report, published, unresolved, stats.publishRetries, stats.replayedAnswers);
  await checkDatabaseIntegrity(deployment, report);
}

/** How many rows hold each hash (0: lost, 1: present, more: duplicated). */
async function countByHash(deployment: Deployment, table: "oauth2_access_tokens" | "oauth2_refresh_tokens", tokens: string[]) {
  const counts = new Map<string, number>();
  for (let i = 0; i < tokens.length; i += 500) {
    const hashes = tokens.slice(i, i + 500).map(sha256Hex);
    const rows = await deployment.storage.db
      .selectFrom(table)
      .select((eb) => ["token_hash", eb.fn.countAll<number>().as("n")])
      .where("token_hash", "in", hashes)
      .groupBy("token_hash")
      .execute();
    for (const row of rows) counts.set(row.token_hash, Number(row.n));
  }
  let lost = 0;
  let duplicated = 0;
  for (const token of tokens) {
    const n = counts.get(sha256Hex(token)) ?? 0;
    if (n === 0) lost += 1;
    if (n > 1) duplicated += 1;
  }
  return { lost, duplicated };
}

async function verifyCodes(
  deployment: Deployment,
  report: Report,
  codes: {
    exchanged: number;
    /** Acknowledged and not presented again: their tokens must be stored. */
    acknowledgedCodes: Array<Acknowledged & { code: string }>;
    /** Presented again after a restart (and answered): their grants must be revoked. */
    replayed: Array<Acknowledged & { code: string }>;
    replaysAccepted: number;
    unknown: number;
  },
): Promise<void> {
  const { acknowledgedCodes: acknowledged, replayed, replaysAccepted, unknown } = codes;
  const access = await countByHash(
    deployment,
    "oauth2_access_tokens",
    acknowledged.map((a) => a.access),
  );
  const refresh = await countByHash(
    deployment,
    "oauth2_refresh_tokens",
    acknowledged.map((a) => a.refresh),
  );
  report.figure(
    "code exchanges acknowledged / lost / duplicated",
    `${codes.exchanged} / ${access.lost + refresh.lost} / ${access.duplicated + refresh.duplicated}`,
  );
  report.figure("code exchanges without an answer (killed mid-request)", unknown);
  report.check(
    "every acknowledged code exchange's tokens are stored exactly once",
    access.lost + refresh.lost + access.duplicated + refresh.duplicated === 0,
  );
  report.figure("codes replayed after a restart", replayed.length);
  report.check("no replayed code was accepted", replaysAccepted === 0, `${replaysAccepted} accepted`);
  const revoked = await countByHash(
    deployment,
    "oauth2_access_tokens",
    replayed.map((r) => r.access),
  );
  report.check(
    "each replayed code's grant is revoked (its access token gone)",
    revoked.lost === replayed.length,
    `${replayed.length - revoked.lost} still present`,
  );
}

async function verifyRefreshChains(
  deployment: Deployment,
  report: Report,
  chains: Array<{ acked: Acknowledged[]; broken: boolean }>,
  retries: number,
): Promise<void> {
  const allRefresh = chains.flatMap((c) => c.acked.map((a) => a.refresh));
  const lastAccess = chains.flatMap((c) => (c.acked.length > 0 ? [c.acked.at(-1)!.access] : []));
  const refresh = await countByHash(deployment, "oauth2_refresh_tokens", allRefresh);
  const access = await countByHash(deployment, "oauth2_access_tokens", lastAccess);
  report.figure(
    "refresh rotations acknowledged / lost / duplicated",
    `${allRefresh.length} / ${refresh.lost + access.lost} / ${refresh.duplicated + access.duplicated}`,
  );
  report.figure("refresh requests retried after a lost answer", retries);
  report.check(
    "every acknowledged rotation's refresh token (and each chain's last access token) is stored exactly once",
    refresh.lost + access.lost + refresh.duplicated + access.duplicated === 0,
  );
  const broken = chains.filter((c) => c.broken).length;
  report.check("no refresh chain was broken by a retry after a lost answer (grace window)", broken === 0, `${broken} broken`);
}

async function verifyPublishes(
  deployment: Deployment,
  report: Report,
  published: Array<{ objectId: number; ids: number[] }>,
  unresolved: number[],
  retries: number,
  replayedAnswers: number,
): Promise<void> {
  const rows = await deployment.storage.db
    .selectFrom("activity")
    .select(["object_id", "activity_id"])
    .where("affecteduser", "=", USER)
    .execute();
  const byObject = new Map<number, number[]>();
  for (const row of rows)
    byObject.set(Number(row.object_id), [...(byObject.get(Number(row.object_id)) ?? []), Number(row.activity_id)]);
  let lost = 0;
  let duplicated = 0;
  let mismatched = 0;
  for (const { objectId, ids } of published) {
    const stored = byObject.get(objectId) ?? [];
    if (stored.length === 0) lost += 1;
    else if (stored.length > 2) duplicated += 1;
    else if ([...stored].sort((a, b) => a - b).join() !== [...ids].sort((a, b) => a - b).join()) mismatched += 1;
  }
  const torn = unresolved.filter((objectId) => ![0, 2].includes(byObject.get(objectId)?.length ?? 0)).length;
  report.figure("publishes acknowledged / lost / duplicated", `${published.length} / ${lost} / ${duplicated}`);
  report.figure("publish attempts retried after a lost answer (same Idempotency-Key)", retries);
  report.figure("retries answered with the first answer (Idempotent-Replayed)", replayedAnswers);
  report.check(
    "every acknowledged publish is stored exactly once, with the ids it answered",
    lost + duplicated + mismatched === 0,
    `${mismatched} with other ids`,
  );
  report.check(
    "a publish never answered is all or nothing (0 or 2 rows)",
    torn === 0,
    `${unresolved.length} never answered, ${torn} torn`,
  );
}
