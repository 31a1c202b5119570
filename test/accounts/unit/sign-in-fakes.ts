import type { User } from "../../../src/accounts/ports.js";
import type { Session } from "../../../src/accounts/sessions.js";
import { SignIn, type SignInContext } from "../../../src/accounts/sign-in.js";
import type { AuditEventInput } from "../../../src/audit/recorder.js";
import { ManualClock } from "../../../src/clock.js";
import type { ProviderId } from "../../../src/second-factor/providers.js";
import { LOGIN_THROTTLE, SECOND_FACTOR_THROTTLE, type ThrottleBucket } from "../../../src/security/domain/throttle-policy.js";
import type { ThrottleStore } from "../../../src/security/ports.js";
import { type AttemptOutcome, Throttle } from "../../../src/security/throttle.js";
import { blankUser } from "../../support/memory/index.js";

/**
 * In-memory stand-ins for what the sign-in use case (src/accounts/sign-in.ts) uses, so its rules
 * run without the app or a database. Each keeps what it was asked, for the tests to read.
 */

export const PASSWORD = "correct horse battery staple";

export function user(uid: string, overrides: Partial<User> = {}): User {
  return blankUser(uid, overrides);
}

/** A throttle gate that admits every attempt (or refuses all with `refuseFor`) and keeps each outcome. */
export class FakeGate {
  refuseFor: number | undefined;
  readonly attempts: { namespace: string; buckets: ThrottleBucket[]; outcome: AttemptOutcome | undefined }[] = [];

  async attempt<T>(throttle: Throttle, buckets: ThrottleBucket[], run: () => Promise<T>, endOf: (value: T) => AttemptOutcome) {
    const record = { namespace: throttle.policy.namespace, buckets, outcome: undefined as AttemptOutcome | undefined };
    this.attempts.push(record);
    if (this.refuseFor !== undefined) return { refused: true as const, retryAfterSeconds: this.refuseFor };
    const value = await run();
    record.outcome = endOf(value);
    return { refused: false as const, value };
  }
}

/** The gate is the only part that reads a throttle's store; these throttles only name their policy. */
const UNUSED_STORE = {} as ThrottleStore;

interface LogLine {
  level: "info" | "warn";
  details: Record<string, unknown>;
}

export class SignInWorld {
  readonly users = new Map<string, User>([["alice", user("alice")]]);
  readonly passwordChecks: string[] = [];
  readonly ended: string[] = [];
  readonly started: { uid: string; pending: Session["pending"] }[] = [];
  readonly completed: Session[] = [];
  /** The step a password sign-in owes, by user. */
  readonly owed = new Map<string, Session["pending"]>();
  /** The passkey assertion that verifies, and its owner. */
  passkeyAssertion = { response: "good assertion", uid: "alice" };
  /** The second-factor code that verifies. */
  rightCode = "123456";
  unusedRecoveryCodes = 9;
  readonly audited: { kind: string; event: AuditEventInput | undefined }[] = [];
  readonly logged: LogLine[] = [];
  readonly gate = new FakeGate();
  private sessionCount = 0;

  readonly signIn = new SignIn({
    users: {
      checkPassword: async (uid, password) => {
        this.passwordChecks.push(uid);
        return password === PASSWORD ? this.users.get(uid) : undefined;
      },
      find: async (uid) => this.users.get(uid),
    },
    sessions: {
      start: async (uid, _userAgent, pending = null) => {
        this.started.push({ uid, pending });
        return this.session(uid, pending);
      },
      complete: async (pendingSession) => {
        this.completed.push(pendingSession);
        return this.session(pendingSession.uid ?? "", null);
      },
      end: async (token) => {
        this.ended.push(token);
      },
    },
    secondFactors: {
      stepAfterPassword: async (uid) => this.owed.get(uid) ?? null,
      verify: async (_uid, _provider: ProviderId, answer) => answer === this.rightCode,
    },
    passkeys: {
      authenticate: async (_binding, response) =>
        response === this.passkeyAssertion.response ? { uid: this.passkeyAssertion.uid } : undefined,
    },
    recoveryCodes: { counts: async () => ({ unused: this.unusedRecoveryCodes }) },
    loginThrottle: new Throttle(UNUSED_STORE, new ManualClock(0), LOGIN_THROTTLE),
    secondFactorThrottle: new Throttle(UNUSED_STORE, new ManualClock(0), SECOND_FACTOR_THROTTLE),
  });

  context(previousSession?: string): SignInContext {
    return {
      ip: "192.0.2.7",
      userAgent: "a browser",
      previousSession,
      origin: "https://cloud.example",
      gate: this.gate,
      audit: { record: (kind, event) => this.audited.push({ kind, event }) },
      log: {
        info: (details) => this.logged.push({ level: "info", details: details as Record<string, unknown> }),
        warn: (details) => this.logged.push({ level: "warn", details: details as Record<string, unknown> }),
      },
    };
  }

  /** The last attempt's outcome as the gate settled it. */
  lastOutcome(): AttemptOutcome | undefined {
    return this.gate.attempts.at(-1)?.outcome;
  }

  session(uid: string, pending: Session["pending"]): Session {
    this.sessionCount += 1;
    return {
      token: `session-${this.sessionCount}`,
      uid,
      csrfToken: "csrf",
      expiresAt: 0,
      authenticatedAt: 0,
      lastSeenAt: 0,
      pending,
    };
  }
}
