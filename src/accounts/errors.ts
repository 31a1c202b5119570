export type AccountErrorCode =
  | "invalid_uid"
  | "uid_taken"
  | "no_such_user"
  | "invalid_password"
  | "invalid_email"
  | "invalid_display_name"
  | "invalid_name"
  | "invalid_avatar"
  | "invalid_preference";

/** A refused account operation; `message` is safe to show to an operator or user. */
export class AccountError extends Error {
  constructor(
    readonly code: AccountErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "AccountError";
  }
}
