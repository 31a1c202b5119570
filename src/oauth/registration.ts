import { randomAlphanumeric } from "../crypto/secrets.js";
import { GENERATED_CREDENTIAL_LENGTH } from "./domain/client-rules.js";
import {
  checkRegistration,
  LAST_USED_RESOLUTION_SECONDS,
  type RegistrationError,
  registeredClientName,
} from "./domain/registration.js";
import type { ClientStore, OAuthClient } from "./ports.js";

interface Logger {
  info(obj: object, msg: string): void;
}

/** RFC 7591 §3.2.1: the client information response's body. */
export interface RegistrationResponse {
  client_id: string;
  /** Absent for a public client (`token_endpoint_auth_method` `none`). */
  client_secret?: string;
  /** 0: the secret never expires (required with a secret). */
  client_secret_expires_at?: 0;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: string;
  application_type: "native" | "web";
  scope: string;
}

/**
 * Registers a client (RFC 7591 §3.1) whose metadata passed `checkRegistration`: a generated client id
 * and secret as the admin page makes them, the loopback redirect target with the any-port
 * wildcard, never trusted, and with account access, since the native clients that register
 * themselves here sync files with tokens asked for with sign-in scopes only (the ownCloud desktop
 * client in its OpenID Connect mode, docs/upstream/desktop-clients.md ownCloud client §6); the user
 * sees that on the consent page, with a line saying the application registered itself. No
 * registration access token is issued (RFC 7592 management is not offered, docs/decisions.md).
 */
export async function registerClient(
  clients: ClientStore,
  metadata: unknown,
  now: number,
  log: Logger,
): Promise<RegistrationResponse | RegistrationError> {
  const checked = checkRegistration(metadata);
  if ("error" in checked) return checked;
  const clientId = randomAlphanumeric(GENERATED_CREDENTIAL_LENGTH);
  const secret = randomAlphanumeric(GENERATED_CREDENTIAL_LENGTH);
  const client = await clients.insert(
    {
      name: registeredClientName(checked.clientName, clientId),
      clientId,
      secret,
      redirectUri: checked.storedRedirectUri,
      allowSubdomains: false,
      trusted: false,
      resourceServer: false,
      accountAccess: true,
      registeredAt: now,
    },
    now,
  );
  // 64 random characters: a collision is not expected, and it would be the store's unique key's refusal.
  if (!client) throw new Error("a registered client's generated name or client id is taken");
  log.info(
    { event: "oauth2_client_registered", client: client.clientId, name: client.name, redirectUri: client.redirectUri },
    `The client "${client.name}" has registered itself.`,
  );
  const confidential = checked.tokenEndpointAuthMethod !== "none";
  return {
    client_id: clientId,
    ...(confidential ? { client_secret: secret, client_secret_expires_at: 0 as const } : {}),
    client_id_issued_at: now,
    // As sent, not as stored: oidc-agent merges the answer with what it sent and fails on any
    // difference (indigo-dc/oidc-agent src/utils/json.c mergeJSONObjects).
    client_name: checked.clientName,
    redirect_uris: checked.redirectUris,
    grant_types: [...checked.grantTypes],
    response_types: [...checked.responseTypes],
    token_endpoint_auth_method: checked.tokenEndpointAuthMethod,
    application_type: checked.applicationType,
    scope: checked.scope,
  };
}

/**
 * Records that a registered client was used (a grant, or tokens issued), at most once a
 * LAST_USED_RESOLUTION_SECONDS, so the token endpoint writes nothing more for it on most requests
 * and nothing at all for a client an administrator added.
 */
export async function markRegisteredClientUsed(clients: ClientStore, client: OAuthClient, now: number): Promise<void> {
  if (client.registeredAt === undefined) return;
  if (client.lastUsedAt !== undefined && now - client.lastUsedAt < LAST_USED_RESOLUTION_SECONDS) return;
  await clients.markUsed(client.id, now);
}
