import type { ColumnType } from "kysely";
import type { EpochSeconds } from "./accounts.js";

/** What a flow's row says about it (`pending` until the browser grants or cancels). */
export type LoginFlowState = "pending" | "granted" | "cancelled";

export interface LoginFlowsTable {
  /** SHA-256 hex of the poll token (the client's secret for `…/login/v2/poll`). */
  poll_token_hash: string;
  /** SHA-256 hex of the login token (the last segment of the `login` URL opened in the browser). */
  login_token_hash: string;
  /** The User-Agent of the request that started the flow: the app password's name. */
  client_name: string;
  state: LoginFlowState;
  created_at: EpochSeconds;
  /** The address the flow was started from (migration 0017); null for flows started before it. */
  client_address: ColumnType<string | null, string | null | undefined, string | null>;
  /** Set by the grant. */
  uid: string | null;
  login_name: string | null;
  app_password_id: number | null;
  /** The app password created by the grant, sealed (secret-box); gone with the row at the poll. */
  sealed_app_password: string | null;
}

export interface LoginFlowTables {
  login_flows: LoginFlowsTable;
}
