/**
 * Every way an activity operation is refused, as a value. `http/activity-errors.ts` alone turns
 * these into statuses (404, 403, 204, 400, 422); the CLI prints `message`.
 */
export type ActivityError =
  /** The path names no filter (docs/spec/activity-api.md: 404). */
  | { code: "unknown_filter"; filter: string }
  /** `since` is an activity of another user (docs/spec/activity-api.md: 403). */
  | { code: "foreign_since"; since: number }
  /** The user's stream settings select no type for this filter (docs/spec/activity-api.md: 204). */
  | { code: "stream_disabled"; filter: string }
  /** A published event failed validation; nothing was written. */
  | { code: "invalid_event"; message: string }
  /** A stream-settings update named an unknown type or a non-boolean value. */
  | { code: "invalid_settings"; message: string }
  /** The Idempotency-Key header or --idempotency-key is malformed (400). */
  | { code: "invalid_idempotency_key"; message: string }
  /** The key was already used with a different request body (draft-ietf-httpapi-idempotency-key-header §2.7: 422). */
  | { code: "idempotency_key_reused"; key: string };

export type Result<T> = { ok: true; value: T } | { ok: false; error: ActivityError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T>(error: ActivityError): Result<T> => ({ ok: false, error });

export function activityErrorMessage(error: ActivityError): string {
  switch (error.code) {
    case "unknown_filter":
      return `unknown filter "${error.filter}"`;
    case "foreign_since":
      return "the activity given as since belongs to another user";
    case "stream_disabled":
      return "no activity type is selected for this stream";
    case "invalid_event":
    case "invalid_settings":
    case "invalid_idempotency_key":
      return error.message;
    case "idempotency_key_reused":
      return `the idempotency key "${error.key}" was already used for a different request; use a new key for new events`;
  }
}
