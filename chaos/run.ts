/**
 * `npm run chaos`: the long fault scenarios of issue 16 against real server processes
 * (`node dist/main.js`), on SQLite and PostgreSQL. Each scenario prints its figures and the
 * invariants it checked; the exit status is 1 when any invariant broke. Loopback only; every
 * scenario stops by itself. Options: chaos/lib/options.ts (CHAOS_SCENARIOS, CHAOS_DATABASES,
 * CHAOS_DURATION, CHAOS_DATABASE_URL). docs/security.md "Chaos scenarios" explains each.
 */
import fs from "node:fs";
import { abusiveClients } from "./abusive-clients.js";
import { kill9 } from "./kill9.js";
import { MAIN } from "./lib/deployment.js";
import { readOptions, type ScenarioName } from "./lib/options.js";
import { log, type Report } from "./lib/report.js";
import type { Scenario } from "./lib/scenario.js";
import { postgresOutage } from "./postgres-outage.js";
import { sigtermUnderLoad } from "./sigterm.js";

const scenarios: Record<ScenarioName, { run: Scenario; databases: "each" | "postgres-own-cluster" }> = {
  kill9: { run: kill9, databases: "each" },
  // Runs its own throw-away cluster (it stops and starts it): needs no URL, only "postgres" in CHAOS_DATABASES.
  "postgres-outage": { run: postgresOutage, databases: "postgres-own-cluster" },
  "abusive-clients": { run: abusiveClients, databases: "each" },
  sigterm: { run: sigtermUnderLoad, databases: "each" },
};

async function main(): Promise<number> {
  const options = readOptions();
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first`);
  log(
    `chaos: scenarios ${options.scenarios.join(", ")}; databases ${options.databases.join(", ")}; ${options.durationSeconds} s of load each`,
  );
  const reports: Report[] = [];
  for (const name of options.scenarios) {
    const scenario = scenarios[name];
    const databases = scenario.databases === "each" ? options.databases : options.databases.filter((d) => d === "postgres");
    for (const database of databases) {
      if (scenario.databases === "each" && database === "postgres" && !options.postgresAdminUrl) {
        log(`\n== ${name} (postgres): skipped, no CHAOS_DATABASE_URL or KEYSTREAM_TEST_DATABASE_URL`);
        continue;
      }
      log(`\n== ${name} (${database})`);
      const started = Date.now();
      const report = await scenario.run({
        database,
        durationSeconds: options.durationSeconds,
        postgresAdminUrl: options.postgresAdminUrl,
      });
      log(`  (${Math.round((Date.now() - started) / 1000)} s)`);
      reports.push(report);
    }
  }
  log("\n== summary");
  for (const report of reports) {
    const failed = report.checks.filter((c) => !c.held);
    log(
      `  ${failed.length === 0 ? "ok  " : "FAIL"} ${report.title}: ${report.checks.length - failed.length}/${report.checks.length} invariants held`,
    );
    for (const check of failed) log(`         broken: ${check.invariant}${check.detail ? ` (${check.detail})` : ""}`);
  }
  return reports.some((r) => r.failed) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`chaos: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
