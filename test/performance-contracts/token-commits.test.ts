import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { SQLITE_FILE } from "../../src/storage/driver/connect.js";
import { createOAuthTestApp, exchangeCode, issueCode, refresh } from "../oauth/support.js";
import { statementsOf } from "../support/statements.js";
import { testDatabaseDialect } from "../support/storage.js";

/**
 * A token request that issues tokens settles its throttle reservation in the transaction that writes
 * the tokens, so it commits twice (the reservation, then the issue with its settlement), not three
 * times. Counted in SQLite's write-ahead log: every commit ends with one frame marked as a commit
 * frame. On PostgreSQL the redemption and the rotation are one statement each, the settlement is
 * part of it, and the client and the code or refresh token are read in the reservation's statement
 * (src/oauth/read-ahead.ts): two round trips per request.
 */

/** The commits in the WAL's current generation (frames whose salts match the header's). */
function walCommits(dataDir: string): number {
  const wal = fs.readFileSync(path.join(dataDir, `${SQLITE_FILE}-wal`));
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  let commits = 0;
  for (let offset = 32; offset + 24 + pageSize <= wal.length; offset += 24 + pageSize) {
    if (wal.readUInt32BE(offset + 8) !== salt1 || wal.readUInt32BE(offset + 12) !== salt2) break;
    if (wal.readUInt32BE(offset + 4) !== 0) commits++;
  }
  return commits;
}

const sqliteOnly = testDatabaseDialect === "sqlite" ? false : "the commit count is SQLite's (its write-ahead log)";
const postgresOnly = testDatabaseDialect === "postgres" ? false : "the round trips are PostgreSQL's";

describe("a token request commits its throttle settlement with the tokens it issues", { skip: sqliteOnly }, () => {
  let t: Awaited<ReturnType<typeof createOAuthTestApp>>;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  /** The token endpoint's buckets (the login that issued the codes has its own). */
  const throttleRows = () =>
    t.services.storage.db
      .selectFrom("throttle")
      .select(["bucket", "failures", "in_flight"])
      .where("bucket", "like", "oauth:%")
      .execute();

  it("a code exchange commits twice: the throttle reservation, then the tokens with the settlement", async () => {
    const code = await issueCode(t);
    // The audit events of the sign-in and consent before it are written now, not inside the count.
    await t.services.audit.flush();
    const before = walCommits(t.testStorage.dataDir);
    const response = await exchangeCode(t, code);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(walCommits(t.testStorage.dataDir) - before, 2);
    // Settled: the request's one bucket (its address) has no attempt in flight and no failure on record.
    const rows = await throttleRows();
    assert.equal(rows.length, 1);
    assert.deepEqual([Number(rows[0]?.failures), Number(rows[0]?.in_flight)], [0, 0]);
  });

  it("a refresh rotation commits twice: the throttle reservation, then the new pair with the settlement", async () => {
    const tokens = (await exchangeCode(t, await issueCode(t))).json();
    // The audit events of the sign-in and consent before it are written now, not inside the count.
    await t.services.audit.flush();
    const before = walCommits(t.testStorage.dataDir);
    const response = await refresh(t, tokens.refresh_token);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(walCommits(t.testStorage.dataDir) - before, 2);
    const rows = await throttleRows();
    assert.equal(rows.length, 1);
    assert.deepEqual([Number(rows[0]?.failures), Number(rows[0]?.in_flight)], [0, 0]);
  });

  it("a refused exchange still settles its reservation on its own, as a failure", async () => {
    const response = await exchangeCode(t, "not-a-code");
    assert.equal(response.statusCode, 400, response.body);
    const rows = await throttleRows();
    assert.equal(rows.length, 1);
    assert.deepEqual([Number(rows[0]?.failures), Number(rows[0]?.in_flight)], [1, 0]);
  });
});

describe("a token request settles its throttle reservation within the statement that issues its tokens", {
  skip: postgresOnly,
}, () => {
  let t: Awaited<ReturnType<typeof createOAuthTestApp>>;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  const bucket = async () => {
    const row = await t.services.storage.db
      .selectFrom("throttle")
      .select(["failures", "in_flight"])
      .where("bucket", "like", "oauth:%")
      .executeTakeFirstOrThrow();
    return [Number(row.failures), Number(row.in_flight)];
  };

  it("a PostgreSQL code exchange is two round trips: the reservation with the client and code read, then the redemption with the settlement", async () => {
    const code = await issueCode(t);
    await t.services.audit.flush(); // earlier requests' audit events are not this request's statements
    const { statements, result } = await statementsOf(t.services.storage, () => exchangeCode(t, code));
    assert.equal(result.statusCode, 200, result.body);
    // The reservation reads the client and the code in its statement; the redemption settles the reservation.
    assert.equal(statements, 2);
    assert.deepEqual(await bucket(), [0, 0]);
  });

  it("a PostgreSQL refresh rotation is two round trips: the reservation with the client and token read, then the rotation with the settlement", async () => {
    const tokens = (await exchangeCode(t, await issueCode(t))).json();
    await t.services.audit.flush(); // earlier requests' audit events are not this request's statements
    const { statements, result } = await statementsOf(t.services.storage, () => refresh(t, tokens.refresh_token));
    assert.equal(result.statusCode, 200, result.body);
    // The reservation reads the client and the refresh token in its statement; the rotation settles the reservation.
    assert.equal(statements, 2);
    assert.deepEqual(await bucket(), [0, 0]);
  });

  it("a failed exchange settles its reservation as a failure, in a statement of its own", async () => {
    const failuresBefore = (await bucket())[0] ?? 0;
    const response = await exchangeCode(t, "not-a-code");
    assert.equal(response.statusCode, 400, response.body);
    assert.deepEqual(await bucket(), [failuresBefore + 1, 0]);
  });
});
