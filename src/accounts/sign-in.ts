import type { SignInFactor } from "../audit/domain/kinds.js";
import type { AuditTrail } from "../audit/recorder.js";
import type { Phrase } from "../i18n/index.js";
import { type Refusal, type Result, refused, succeeded } from "../refusal.js";
import type { CeremonyBinding } from "../second-factor/passkeys.js";
import type { ChallengeContext, ProviderId } from "../second-factor/providers.js";
import {
  loginBuckets,
  loginUserBucket,
  passkeySignInBuckets,
  secondFactorBuckets,
  secondFactorUserBucket,
  type ThrottleBucket,
} from "../security/domain/throttle-policy.js";
import type { AttemptOutcome, Throttle } from "../security/throttle.js";
import type { SessionPending, User } from "./ports.js";
import type { Session } from "./sessions.js";
import { recordSignIn, recordSignInFailure } from "./sign-in-events.js";

/** Why a sign-in was refused: the code of its refusal and the reason its audit event names. */
export type SignInRefusalCode = "throttled" | "wrong_credentials" | "disabled";

/** A sign-in that went through: the session started, and the step it still owes (null: none). */
export interface SignedIn {
  session: Session;
  pendingStep: SessionPending | null;
}

export type SignInResult = Result<SignedIn, SignInRefusalCode>;

/** A throttled attempt's end: refused by the throttle before it ran, or its value. */
export type GatedAttempt<T> = { refused: true; retryAfterSeconds: number } | { refused: false; value: T };

/**
 * The throttle gate of the front end the attempt came through (src/http/throttling.ts for the
 * web): reserves the attempt in `buckets` before it runs, waits the delay it owes, runs it and
 * settles the reservation with `endOf` its value.
 */
export interface AttemptGate {
  attempt<T>(
    throttle: Throttle,
    buckets: ThrottleBucket[],
    run: () => Promise<T>,
    endOf: (value: T) => AttemptOutcome,
  ): Promise<GatedAttempt<T>>;
}

interface SignInLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** Where an attempt comes from, as the front end saw it. */
export interface SignInContext {
  ip: string;
  userAgent: string | undefined;
  /** The session the browser came with, ended by a sign-in: the signed-in session has a new id. */
  previousSession: string | undefined;
  /** The origin a passkey assertion is bound to (W3C WebAuthn Level 3 §7.2 step 9). */
  origin: string;
  gate: AttemptGate;
  /** The audit log in the attempt's context (address, browser, request id). */
  audit: AuditTrail;
  log: SignInLog;
}

/** What the use case needs of the accounts and second-factor services. */
export interface SignInServices {
  users: {
    checkPassword(uid: string, password: string): Promise<User | undefined>;
    find(uid: string): Promise<User | undefined>;
  };
  sessions: {
    start(uid: string, userAgent?: string, pending?: SessionPending | null): Promise<Session>;
    complete(pendingSession: Session, userAgent?: string): Promise<Session>;
    end(token: string): Promise<void>;
  };
  secondFactors: {
    stepAfterPassword(uid: string): Promise<SessionPending | null>;
    verify(uid: string, id: ProviderId, answer: string, context: ChallengeContext): Promise<boolean>;
  };
  passkeys: {
    authenticate(binding: CeremonyBinding, responseJson: string, origin: string): Promise<{ uid: string } | undefined>;
  };
  recoveryCodes: { counts(uid: string): Promise<{ unused: number }> };
  loginThrottle: Throttle;
  secondFactorThrottle: Throttle;
}

/** The phrases a refusal is told in, by the way the attempt came (docs/security.md "Passkeys"). */
const PHRASES: Record<"password" | "passkey" | "second_factor", Record<SignInRefusalCode, Phrase>> = {
  password: {
    throttled: { key: "pages:login.error.throttled" },
    wrong_credentials: { key: "pages:login.error.wrong" },
    disabled: { key: "pages:login.error.disabled" },
  },
  passkey: {
    throttled: { key: "secondFactor:challenge.throttled" },
    wrong_credentials: { key: "secondFactor:passkey.signInFailed" },
    disabled: { key: "pages:login.error.disabled" },
  },
  second_factor: {
    throttled: { key: "secondFactor:challenge.throttled" },
    wrong_credentials: { key: "secondFactor:challenge.wrong" },
    disabled: { key: "pages:login.error.disabled" },
  },
};

/**
 * Interactive sign-in (docs/security.md "Second factors", "Passkeys"): a password, a passkey, or
 * the second factor a password sign-in owes. Each attempt is reserved in its throttle before the
 * secret is looked at; a wrong secret counts, a disabled account's right password does not; a
 * sign-in ends the session the browser came with and starts one with a new id; every end is
 * logged and audited. The front end parses the attempt and answers with what this returns.
 */
export class SignIn {
  constructor(private readonly services: SignInServices) {}

  /** The login form: a password right for an enabled account starts a session, owing a second factor when the user has one. */
  async withPassword(uid: string, password: string, context: SignInContext): Promise<SignInResult> {
    const { users, sessions, secondFactors, loginThrottle } = this.services;
    const { ip, log, audit } = context;
    // Reserved per address and per user before the password is checked (all nodes, concurrent
    // attempts included); past the ceiling refused without looking at it.
    const gate = await context.gate.attempt(
      loginThrottle,
      loginBuckets(ip, uid),
      () => users.checkPassword(uid, password),
      (found): AttemptOutcome =>
        !found ? { kind: "failure" } : found.enabled ? { kind: "success", reset: [loginUserBucket(uid)] } : { kind: "uncounted" },
    );
    if (gate.refused) {
      log.warn({ event: "login_throttled", uid, ip }, "login refused: too many failed attempts");
      return this.refuse(context, "password", "password", uid, "throttled", gate.retryAfterSeconds);
    }
    const user = gate.value;
    if (!user) {
      // A warning, as Nextcloud logs them: what an alert on failed logins watches.
      log.warn({ event: "login_failed", uid, ip }, "login failed");
      return this.refuse(context, "password", "password", uid, "wrong_credentials");
    }
    if (!user.enabled) {
      log.info({ event: "login_refused_disabled", uid, ip }, "login refused: user disabled");
      return this.refuse(context, "password", "password", uid, "disabled");
    }
    // The session starts here, at the login, with a new id: a session id planted before the login
    // (or the one a `prompt=login` replaces) is ended and worth nothing after it.
    if (context.previousSession) await sessions.end(context.previousSession);
    // A user with a second factor (or, enforced, without one yet) gets a session that owes that
    // step: no principal anywhere until the challenge or the setup completes it (a new id then).
    const pendingStep = await secondFactors.stepAfterPassword(user.uid);
    const session = await sessions.start(user.uid, context.userAgent, pendingStep);
    if (pendingStep !== null) {
      log.info({ event: "login_password_passed", uid: user.uid, ip, pending: pendingStep }, "password right; second factor owed");
      return succeeded({ session, pendingStep });
    }
    log.info({ event: "login", uid: user.uid, ip }, "user logged in");
    recordSignIn(audit, user.uid, "password");
    return succeeded({ session, pendingStep });
  }

  /**
   * Passwordless sign-in: an assertion verified with user verification is both factors, so the
   * session starts complete. Throttled per address (the user is known only once it verifies).
   */
  async withPasskey(binding: CeremonyBinding, assertion: string, context: SignInContext): Promise<SignInResult> {
    const { users, sessions, passkeys, secondFactorThrottle } = this.services;
    const { ip, log, audit } = context;
    const gate = await context.gate.attempt(
      secondFactorThrottle,
      passkeySignInBuckets(ip),
      () => passkeys.authenticate(binding, assertion, context.origin),
      (passkey): AttemptOutcome => (passkey ? { kind: "success", reset: [] } : { kind: "failure" }),
    );
    if (gate.refused) {
      log.warn({ event: "passkey_sign_in_throttled", ip }, "passkey sign-in refused: too many failed attempts");
      return this.refuse(context, "passkey", "passkey", undefined, "throttled", gate.retryAfterSeconds);
    }
    const passkey = gate.value;
    if (passkey === undefined) {
      log.warn({ event: "passkey_sign_in_failed", ip }, "passkey sign-in failed");
      return this.refuse(context, "passkey", "passkey", undefined, "wrong_credentials");
    }
    const user = await users.find(passkey.uid);
    if (!user?.enabled) {
      log.info({ event: "login_refused_disabled", uid: passkey.uid, ip }, "login refused: user disabled");
      return this.refuse(context, "passkey", "passkey", passkey.uid, "disabled");
    }
    if (context.previousSession) await sessions.end(context.previousSession);
    const session = await sessions.start(user.uid, context.userAgent, null);
    log.info({ event: "login", uid: user.uid, method: "passkey", ip }, "user logged in with a passkey");
    recordSignIn(audit, user.uid, "passkey");
    return succeeded({ session, pendingStep: null });
  }

  /**
   * The challenge a password sign-in owes: the code of one of the user's second factors, reserved
   * per address and per user before it is looked at, as the password is. Right, the pending session
   * is completed.
   */
  async withSecondFactor(
    pending: Session,
    uid: string,
    provider: ProviderId,
    code: string,
    context: SignInContext,
  ): Promise<SignInResult> {
    const { secondFactors, recoveryCodes, secondFactorThrottle } = this.services;
    const { ip, log } = context;
    const gate = await context.gate.attempt(
      secondFactorThrottle,
      secondFactorBuckets(ip, uid),
      () => secondFactors.verify(uid, provider, code, { origin: context.origin }),
      (accepted): AttemptOutcome => (accepted ? { kind: "success", reset: [secondFactorUserBucket(uid)] } : { kind: "failure" }),
    );
    if (gate.refused) {
      log.warn({ event: "second_factor_throttled", uid, provider, ip }, "second factor refused: too many failed attempts");
      return this.refuse(context, "second_factor", provider, uid, "throttled", gate.retryAfterSeconds);
    }
    if (!gate.value) {
      log.warn({ event: "second_factor_failed", uid, provider, ip }, "second factor challenge failed");
      return this.refuse(context, "second_factor", provider, uid, "wrong_credentials");
    }
    if (provider === "backup_codes") {
      const { unused } = await recoveryCodes.counts(uid);
      log.warn({ event: "recovery_code_used", uid, remaining: unused, ip }, "recovery code used to log in");
    }
    log.info({ event: "second_factor_passed", uid, provider, ip }, "second factor challenge passed");
    return succeeded({ session: await this.completeSecondStep(pending, uid, provider, context), pendingStep: null });
  }

  /**
   * Ends the session that passed only the password and starts the login's session with a new id,
   * once `factor` has been passed (the challenge) or set up (enforced second factors).
   */
  async completeSecondStep(pending: Session, uid: string, factor: ProviderId, context: SignInContext): Promise<Session> {
    const session = await this.services.sessions.complete(pending, context.userAgent);
    context.log.info({ event: "login", uid, ip: context.ip }, "user logged in");
    recordSignIn(context.audit, uid, factor, { password: true });
    return session;
  }

  /** The refusal of `code`, audited as a failed sign-in with `factor` by `uid` (the name tried, when known). */
  private refuse(
    context: SignInContext,
    way: keyof typeof PHRASES,
    factor: SignInFactor,
    uid: string | undefined,
    code: SignInRefusalCode,
    retryAfterSeconds?: number,
  ): Refusal<SignInRefusalCode> {
    recordSignInFailure(context.audit, uid, factor, code);
    return refused(code, PHRASES[way][code], {
      guess: code === "wrong_credentials",
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }
}
