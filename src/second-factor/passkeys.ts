import { createHash } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  VerifiedRegistrationResponse,
} from "@simplewebauthn/server";
import { type AuditTrail, NO_AUDIT } from "../audit/recorder.js";
import type { Clock } from "../clock.js";
import type { PasskeyRecord, PasskeyStore, WebAuthnChallengeStore } from "./ports.js";
import { type ChallengeContext, type FactorChangeObserver, FactorChanges, type SecondFactorProvider } from "./providers.js";

/**
 * `@simplewebauthn/server`, loaded at the first ceremony: with its CBOR and ASN.1 dependencies it is
 * over a hundred modules that a server whose users have no passkeys never needs at start.
 */
const webAuthn = () => import("@simplewebauthn/server");

/** Base64url (RFC 4648 §5, unpadded) as WebAuthn's JSON encodes binary values. */
const base64url = {
  encode: (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url"),
  decode: (text: string) => new Uint8Array(Buffer.from(text, "base64url")),
};

/** The relying party's name an authenticator shows (W3C WebAuthn Level 3 §5.4.1 `rp.name`). */
const RP_NAME = "Keystream";
/** How long a ceremony may take from options to answer (§5.4 `timeout`, recommended 300 s for UV). */
export const CEREMONY_SECONDS = 300;
/** The longest name a passkey keeps (the column's width). */
export const PASSKEY_NAME_MAX = 64;

/** What may answer a challenge: a registration or a second factor by one user, or one browser's sign-in. */
export type CeremonyBinding = { kind: "register" | "second_factor"; uid: string } | { kind: "sign_in"; browser: string };

function bindingKey(binding: CeremonyBinding): string {
  return binding.kind === "sign_in" ? `sign_in:${binding.browser}` : `${binding.kind}:${binding.uid}`;
}

/**
 * The relying party of an origin: its id is the origin's host name (§5.1.4.1: the RP ID defaults
 * to the origin's effective domain), so a passkey registered here is usable on this host only.
 */
export function relyingPartyId(origin: string): string {
  return new URL(origin).hostname;
}

/**
 * The user handle of `uid` (§5.4.3 `user.id`): a hash, not the user name, since the specification
 * asks that it carry no personal information (§14.6.1); the same for every passkey of the user.
 */
export function userHandle(uid: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash("sha256").update(`webauthn-user:${uid}`).digest());
}

/** The challenge an answer claims to answer (clientDataJSON's `challenge`, §5.8.1), or undefined. */
function claimedChallenge(clientDataJSON: unknown): string | undefined {
  if (typeof clientDataJSON !== "string") return undefined;
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown };
    return typeof data.challenge === "string" ? data.challenge : undefined;
  } catch {
    return undefined;
  }
}

function parse<T>(json: string): T | undefined {
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === "object" && value !== null ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}

/** Why a registration was refused. */
export type RegistrationRefusal = "malformed" | "challenge" | "verification" | "duplicate";

/**
 * Passkeys, provider `webauthn` (Nextcloud's twofactor_webauthn): discoverable credentials with
 * user verification (§5.4.6 `residentKey: required`, §5.8.6 `userVerification: required`), so one
 * passkey is both factors and also signs in alone. The ceremonies are `@simplewebauthn/server`'s;
 * every challenge is kept server-side bound to what may answer it, and used once (§13.4.3); the
 * signature counter is checked by the library (§6.1.1) and moved on conditionally here.
 */
export class Passkeys implements SecondFactorProvider {
  readonly id = "webauthn" as const;
  readonly primary = true;
  private readonly changes: FactorChanges;

  constructor(
    private readonly store: PasskeyStore,
    private readonly challenges: WebAuthnChallengeStore,
    private readonly clock: Clock,
    private readonly audit: AuditTrail = NO_AUDIT,
    /** Told when the provider is added or removed for a user (the user is notified of it). */
    changed?: FactorChangeObserver,
  ) {
    this.changes = new FactorChanges("webauthn", changed);
  }

  list(uid: string): Promise<PasskeyRecord[]> {
    return this.store.listFor(uid);
  }

  async isEnabledFor(uid: string): Promise<boolean> {
    return (await this.store.listFor(uid)).length > 0;
  }

  isOfferedTo(uid: string): Promise<boolean> {
    return this.isEnabledFor(uid);
  }

  private async keep(challenge: string, binding: CeremonyBinding): Promise<void> {
    const now = this.clock.nowSeconds();
    await this.challenges.save(challenge, bindingKey(binding), now + CEREMONY_SECONDS, now);
  }

  /** Consumes the challenge the answer claims, when it was handed out for `binding`. */
  private async consume(clientDataJSON: unknown, binding: CeremonyBinding): Promise<string | undefined> {
    const challenge = claimedChallenge(clientDataJSON);
    if (challenge === undefined) return undefined;
    return (await this.challenges.consume(challenge, bindingKey(binding), this.clock.nowSeconds())) ? challenge : undefined;
  }

  /** Options for registering a new passkey of `uid` (§5.4), its challenge kept for the user. */
  async registrationOptions(uid: string, displayName: string, origin: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.store.listFor(uid);
    const { generateRegistrationOptions } = await webAuthn();
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: relyingPartyId(origin),
      userName: uid,
      userDisplayName: displayName,
      userID: userHandle(uid),
      timeout: CEREMONY_SECONDS * 1000,
      attestationType: "none",
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports as AuthenticatorTransportFuture[] })),
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    });
    await this.keep(options.challenge, { kind: "register", uid });
    return options;
  }

  /** Verifies and stores a new passkey of `uid` from the authenticator's response (§7.1). */
  async register(
    uid: string,
    name: string,
    responseJson: string,
    origin: string,
  ): Promise<{ ok: true; passkey: PasskeyRecord } | { ok: false; refusal: RegistrationRefusal }> {
    const response = parse<RegistrationResponseJSON>(responseJson);
    if (response === undefined) return { ok: false, refusal: "malformed" };
    const challenge = await this.consume(response.response?.clientDataJSON, { kind: "register", uid });
    if (challenge === undefined) return { ok: false, refusal: "challenge" };
    let info: VerifiedRegistrationResponse["registrationInfo"];
    try {
      const { verifyRegistrationResponse } = await webAuthn();
      const result = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: relyingPartyId(origin),
        requireUserVerification: true,
      });
      info = result.verified ? result.registrationInfo : undefined;
    } catch {
      info = undefined;
    }
    if (info === undefined) return { ok: false, refusal: "verification" };
    const passkey: PasskeyRecord = {
      id: info.credential.id,
      uid,
      name: name.trim().slice(0, PASSKEY_NAME_MAX),
      publicKey: base64url.encode(info.credential.publicKey),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      createdAt: this.clock.nowSeconds(),
      lastUsedAt: null,
    };
    if (!(await this.store.add(passkey))) return { ok: false, refusal: "duplicate" };
    this.audit.record("second_factor.enabled", {
      uid,
      subject: { type: "factor", id: "webauthn" },
      detail: { factor: "webauthn", name: passkey.name },
    });
    await this.changes.tell(uid, "added");
    return { ok: true, passkey };
  }

  /**
   * Options for an assertion (§5.5): for a sign-in, no credentials listed (the authenticator offers
   * its discoverable ones for this RP); for a second factor, the user's passkeys.
   */
  async authenticationOptions(binding: CeremonyBinding, origin: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const allow =
      binding.kind === "sign_in"
        ? undefined
        : (await this.store.listFor(binding.uid)).map((p) => ({
            id: p.id,
            transports: p.transports as AuthenticatorTransportFuture[],
          }));
    const { generateAuthenticationOptions } = await webAuthn();
    const options = await generateAuthenticationOptions({
      rpID: relyingPartyId(origin),
      userVerification: "required",
      timeout: CEREMONY_SECONDS * 1000,
      ...(allow === undefined ? {} : { allowCredentials: allow }),
    });
    await this.keep(options.challenge, binding);
    return options;
  }

  /**
   * Verifies an assertion (§7.2) answering a challenge handed out for `binding`: the passkey it
   * was made with, its use recorded, or undefined. For a second factor the passkey must be the
   * user's; for a sign-in, the user handle it returns must be its owner's (§7.2 step 6).
   */
  async authenticate(binding: CeremonyBinding, responseJson: string, origin: string): Promise<PasskeyRecord | undefined> {
    const response = parse<AuthenticationResponseJSON>(responseJson);
    if (response === undefined || typeof response.id !== "string") return undefined;
    const challenge = await this.consume(response.response?.clientDataJSON, binding);
    if (challenge === undefined) return undefined;
    const passkey = await this.store.find(response.id);
    if (passkey === undefined) return undefined;
    if (binding.kind !== "sign_in" && passkey.uid !== binding.uid) return undefined;
    const handle = response.response.userHandle;
    if (handle !== undefined && handle !== base64url.encode(userHandle(passkey.uid))) return undefined;
    let newCounter: number;
    try {
      const { verifyAuthenticationResponse } = await webAuthn();
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: relyingPartyId(origin),
        credential: {
          id: passkey.id,
          publicKey: base64url.decode(passkey.publicKey),
          counter: passkey.counter,
          transports: passkey.transports as AuthenticatorTransportFuture[],
        },
        requireUserVerification: true,
      });
      if (!result.verified) return undefined;
      newCounter = result.authenticationInfo.newCounter;
    } catch {
      return undefined;
    }
    const now = this.clock.nowSeconds();
    if (!(await this.store.recordUse(passkey.id, passkey.counter, newCounter, now))) return undefined;
    return { ...passkey, counter: newCounter, lastUsedAt: now };
  }

  /** The second factor after the password: `answer` is the assertion, as JSON. */
  async verify(uid: string, answer: string, context: ChallengeContext): Promise<boolean> {
    return (await this.authenticate({ kind: "second_factor", uid }, answer, context.origin)) !== undefined;
  }

  async remove(uid: string, id: string): Promise<boolean> {
    const removed = await this.store.remove(uid, id);
    if (removed) this.disabled(uid, { one: true });
    return this.changes.tell(uid, "removed", removed);
  }

  async disableFor(uid: string): Promise<boolean> {
    const removed = await this.store.removeAll(uid);
    if (removed) this.disabled(uid, { one: false });
    return this.changes.tell(uid, "removed", removed);
  }

  private disabled(uid: string, which: { one: boolean }): void {
    this.audit.record("second_factor.disabled", {
      uid,
      subject: { type: "factor", id: "webauthn" },
      detail: { factor: "webauthn", all: !which.one },
    });
  }
}
