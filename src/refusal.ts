import { inEnglish, type Phrase } from "./i18n/index.js";

/**
 * A refused operation, as a value every domain returns (the shape of node-oidc-provider's
 * lib/helpers/errors.js, whose errors carry a code, a public description and whether they are
 * expected): the code a caller branches on, the phrase the refused party reads in their language,
 * the detail only the log hears, and whether the attempt counts as a guess for a throttle. The HTTP
 * surfaces turn a code into a status in one table (src/http/refusals.ts), as node-oidc-provider's
 * lib/shared/err_out.js does.
 */
export interface Refusal<Code extends string = string> {
  readonly ok: false;
  readonly code: Code;
  /** What the refused party is told on a page, in their language. */
  readonly phrase: Phrase;
  /** The English sentence: what occ prints, an API answer describes, and the log records. */
  readonly message: string;
  /** What only the log may record (never shown to the refused party). */
  readonly detail?: string;
  /** True when the refusal is a wrong guess at a secret, a failure a throttle counts. */
  readonly guess: boolean;
  /** For a refusal by a throttle: the seconds until the next attempt may be made (Retry-After). */
  readonly retryAfterSeconds?: number;
}

/** What an operation that went through gives back. */
export interface Success<T> {
  readonly ok: true;
  readonly value: T;
}

/** An operation's outcome: its value, or a refusal with one of its codes. */
export type Result<T, Code extends string = string> = Success<T> | Refusal<Code>;

export function succeeded<T>(value: T): Success<T> {
  return { ok: true, value };
}

interface RefusalOptions {
  /** The English sentence, when it is not the phrase in English. */
  message?: string;
  detail?: string;
  guess?: boolean;
  retryAfterSeconds?: number;
}

/** A refusal with `code`, told as `phrase`; not a guess unless said. */
export function refused<Code extends string>(code: Code, phrase: Phrase, options: RefusalOptions = {}): Refusal<Code> {
  const { message = inEnglish(phrase), detail, guess = false, retryAfterSeconds } = options;
  return {
    ok: false,
    code,
    phrase,
    message,
    guess,
    ...(detail === undefined ? {} : { detail }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
}
