import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

/** W3C WebAuthn Level 3 §6.1 authenticator data flags. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

const b64url = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));

/**
 * A software authenticator for server-side tests, written from the specification rather than from
 * the server's library: an ES256 key pair (COSE alg -7, §6.5.1.1), "none" attestation (§8.7),
 * authenticator data as §6.1 lays it out, assertion signatures over authenticatorData ‖
 * SHA-256(clientDataJSON) (§6.3.3). Each option bends one rule, for the refusal tests.
 */
export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
  counter = 0;
  userHandle: string | undefined;

  constructor(readonly origin: string) {}

  get id(): string {
    return b64url(this.credentialId);
  }

  private coseKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: "jwk" });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(String(jwk.x))],
        [-3, isoBase64URL.toBuffer(String(jwk.y))],
      ]),
    );
  }

  private authenticatorData(rpId: string, flags: number, attested: boolean): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const parts = [createHash("sha256").update(rpId).digest(), Buffer.from([flags]), counter];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), length, this.credentialId, Buffer.from(this.coseKey()));
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() answered (§7.1's input). */
  register(
    options: PublicKeyCredentialCreationOptionsJSON,
    bend: { origin?: string; userVerified?: boolean } = {},
  ): RegistrationResponseJSON {
    this.userHandle = options.user.id;
    const flags = UP | AT | (bend.userVerified === false ? 0 : UV);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", new Uint8Array(this.authenticatorData(options.rp.id ?? "", flags, true))],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge, bend.origin ?? this.origin)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** navigator.credentials.get() answered (§7.2's input); the counter moves on unless told not to. */
  assert(
    options: PublicKeyCredentialRequestOptionsJSON,
    bend: { origin?: string; userVerified?: boolean; keepCounter?: boolean; rpId?: string } = {},
  ): AuthenticationResponseJSON {
    if (!bend.keepCounter) this.counter += 1;
    const flags = UP | (bend.userVerified === false ? 0 : UV);
    const authenticatorData = this.authenticatorData(bend.rpId ?? options.rpId ?? "", flags, false);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, bend.origin ?? this.origin);
    const signed = Buffer.concat([authenticatorData, createHash("sha256").update(clientDataJSON).digest()]);
    const signature = sign("sha256", signed, this.keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        ...(this.userHandle === undefined ? {} : { userHandle: this.userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
