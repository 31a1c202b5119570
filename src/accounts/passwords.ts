import type { AccountErrorText } from "./errors.js";

/**
 * argon2id with the minimum parameters of OWASP's Password Storage Cheat Sheet (m = 19 MiB, t = 2,
 * p = 1): about 10 ms a hash, memory-hard against GPU guessing. The native module (≈ 3 MB once
 * loaded) is loaded with the first password hashed or checked: a server whose clients only present
 * tokens and app passwords never needs it.
 */
const ARGON2ID = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

let argon2: Promise<typeof import("@node-rs/argon2")> | undefined;
const loadArgon2 = () => {
  argon2 ??= import("@node-rs/argon2");
  return argon2;
};

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

export async function hashPassword(password: string): Promise<string> {
  const argon2id = await loadArgon2();
  return argon2id.hash(password, { ...ARGON2ID, algorithm: argon2id.Algorithm.Argon2id });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  const { verify } = await loadArgon2();
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Returns a reason when the password is unacceptable, undefined when it is fine. */
export function passwordProblem(
  password: string,
): { text: AccountErrorText; values: { min?: number; max?: number } } | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return { text: "passwordTooShort", values: { min: MIN_PASSWORD_LENGTH } };
  if (password.length > MAX_PASSWORD_LENGTH) return { text: "passwordTooLong", values: { max: MAX_PASSWORD_LENGTH } };
  return undefined;
}

/** A hash to verify against when the user does not exist, so a missing account costs the same time. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword("keystream-timing-equaliser");
  return dummyHash;
}
