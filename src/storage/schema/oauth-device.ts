import type { DeviceState } from "../../oauth/domain/device-flow.js";
import type { EpochSeconds } from "./accounts.js";

/** One device authorization (RFC 8628 §3.2, migration 0019). */
export interface OAuthDeviceCodesTable {
  /** SHA-256 hex of the device code (the client's secret for its polls). */
  device_code_hash: string;
  /** SHA-256 hex of the user code, normalized (upper case, no dash: RFC 8628 §6.1). */
  user_code_hash: string;
  client_id: number;
  /** What the authorization is for (src/oauth/domain/scope.ts). */
  scope: string;
  state: DeviceState;
  /** 1: requested with client_id alone (a public client); its polls need no secret. */
  public_client: number;
  created_at: EpochSeconds;
  expires_at: EpochSeconds;
  /** RFC 8628 §3.5: seconds between polls, 5 and 5 more per `slow_down`. */
  poll_interval: number;
  last_polled_at: EpochSeconds | null;
  /** Set by the approval: its grant, and the hash of that grant's code the poll redeems. */
  grant_id: number | null;
  code_hash: string | null;
}

export interface OAuthDeviceTables {
  oauth2_device_codes: OAuthDeviceCodesTable;
}
