import type { HostSettings } from "../config/host-settings.js";
import type { AppPasswords } from "./app-passwords.js";
import type { User } from "./ports.js";
import type { Session, Sessions } from "./sessions.js";
import type { UserDirectory } from "./users.js";

/** Who a request acts for, and how that was proven. */
export interface Principal {
  user: User;
  method: "session" | "password" | "app-password" | "bearer";
  /** For method "bearer": the OAuth client the token was issued to. */
  clientId?: string;
  /** For method "bearer": the scope the token's grant was given (UserInfo answers by it). */
  scope?: string | null;
  /**
   * For method "bearer": the extension of the user's avatar (null: none), read with the token so
   * UserInfo's `picture` costs no statement of its own. Absent: not known, ask Avatars.
   */
  avatarExtension?: string | null;
  /** For method "session": the session, whose CSRF token guards state-changing forms. */
  session?: Session;
  /** For method "app-password": which app password (a client may delete its own, OCS core/apppassword). */
  appPasswordId?: number;
}

/**
 * Resolves an opaque bearer token to its user, read with the token (one statement per request).
 * The OAuth module provides the implementation (`src/oauth`); the chain only knows this contract,
 * so accounts code does not depend on OAuth.
 */
export interface BearerTokenResolver {
  resolve(
    token: string,
  ): Promise<{ user: User; clientId: string; scope?: string | null; avatarExtension?: string | null } | undefined>;
}

/**
 * Whether a user has a second factor, asked by the chain for HTTP Basic with the account password.
 * The second-factor module provides it (`src/second-factor`); the chain only knows this contract.
 */
export interface SecondFactorPolicy {
  required(uid: string): Promise<boolean>;
}

/** A session that has passed only the password: its user, and the step it still owes. */
export interface PendingLogin {
  user: User;
  session: Session;
}

export type AuthenticationFailure =
  | "invalid_credentials"
  | "password_login_forbidden"
  /**
   * The account password was right, but the user has a second factor: HTTP Basic takes an app
   * password or a token then, as Nextcloud's (lib/private/User/Session.php `logClientIn`).
   */
  | "second_factor_required"
  | "invalid_token"
  | "unsupported_scheme"
  /** Too many failed attempts (the HTTP layer's throttle): refused before any check. */
  | "throttled";

export type AuthenticationResult =
  | { principal: Principal }
  | { failure: AuthenticationFailure; retryAfterSeconds?: number }
  /**
   * Nobody. `pendingLogin`: the session cookie names a session that has passed only the
   * password; it is no principal, only the challenge and setup pages read it.
   */
  | { anonymous: true; pendingLogin?: PendingLogin };

/**
 * The one authentication chain every protected route uses: an Authorization header (Basic with
 * password or app password, or Bearer) when present, else the session cookie.
 */
/** The chain's extension points, given when it is built. */
export interface AuthenticationExtensions {
  /** Bearer tokens (the OAuth service); without it every Bearer header is an invalid token. */
  bearer?: BearerTokenResolver | undefined;
  /** Second factors: whether the account password alone still proves a user (HTTP Basic). */
  secondFactors?: SecondFactorPolicy | undefined;
}

export class Authenticator {
  private readonly bearerResolver: BearerTokenResolver | undefined;
  private readonly secondFactors: SecondFactorPolicy | undefined;

  constructor(
    private readonly users: UserDirectory,
    private readonly appPasswords: AppPasswords,
    private readonly sessions: Sessions,
    private readonly settings: HostSettings,
    extensions: AuthenticationExtensions = {},
  ) {
    this.bearerResolver = extensions.bearer;
    this.secondFactors = extensions.secondFactors;
  }

  async authenticate(authorization: string | undefined, sessionToken: string | undefined): Promise<AuthenticationResult> {
    if (authorization !== undefined && authorization !== "") return this.authenticateHeader(authorization);
    if (sessionToken) {
      const session = await this.sessions.find(sessionToken);
      if (session?.uid) {
        const user = await this.users.find(session.uid);
        // The one place a session becomes a principal: one that owes a step never does.
        if (user?.enabled && session.pending !== null) return { anonymous: true, pendingLogin: { user, session } };
        if (user?.enabled) {
          await this.sessions.touch(session);
          return { principal: { user, method: "session", session } };
        }
      }
    }
    return { anonymous: true };
  }

  private async authenticateHeader(header: string): Promise<AuthenticationResult> {
    const match = /^(\S+)\s+(\S+)\s*$/.exec(header);
    const scheme = match?.[1]?.toLowerCase();
    const credentials = match?.[2] ?? "";
    if (scheme === "basic") {
      const decoded = Buffer.from(credentials, "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon < 0) return { failure: "invalid_credentials" };
      return this.basic(decoded.slice(0, colon), decoded.slice(colon + 1));
    }
    if (scheme === "bearer") return this.bearer(credentials);
    return { failure: "unsupported_scheme" };
  }

  /**
   * HTTP Basic: an app password first (it must belong to the named user), then the account
   * password unless `token_auth_enforced` forbids it.
   */
  async basic(uid: string, secret: string): Promise<AuthenticationResult> {
    return (await this.basicAppPassword(uid, secret)) ?? this.basicAccountPassword(uid, secret);
  }

  /**
   * The app-password half of HTTP Basic: the answer when `secret` is an app password (it must
   * belong to the named, enabled user), undefined when it is none. One indexed lookup of its hash.
   */
  async basicAppPassword(uid: string, secret: string): Promise<AuthenticationResult | undefined> {
    const appPassword = await this.appPasswords.resolve(secret);
    if (!appPassword) return undefined;
    if (appPassword.uid !== uid) return { failure: "invalid_credentials" };
    const user = await this.users.find(uid);
    return user?.enabled
      ? { principal: { user, method: "app-password", appPasswordId: appPassword.id } }
      : { failure: "invalid_credentials" };
  }

  /**
   * The account-password half of HTTP Basic (argon2id), refused when `token_auth_enforced`, and
   * for a user with a second factor (the password alone does not prove such a user).
   */
  async basicAccountPassword(uid: string, secret: string): Promise<AuthenticationResult> {
    const user = await this.users.checkPassword(uid, secret);
    if (!user?.enabled) return { failure: "invalid_credentials" };
    if (this.settings.get("token_auth_enforced")) return { failure: "password_login_forbidden" };
    if (await this.secondFactors?.required(user.uid)) return { failure: "second_factor_required" };
    return { principal: { user, method: "password" } };
  }

  async bearer(token: string): Promise<AuthenticationResult> {
    const resolved = token && this.bearerResolver ? await this.bearerResolver.resolve(token) : undefined;
    if (!resolved?.user.enabled) return { failure: "invalid_token" };
    return {
      principal: {
        user: resolved.user,
        method: "bearer",
        clientId: resolved.clientId,
        scope: resolved.scope ?? null,
        ...(resolved.avatarExtension === undefined ? {} : { avatarExtension: resolved.avatarExtension }),
      },
    };
  }
}
