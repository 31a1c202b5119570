import { Algorithm, hash, verify } from "@node-rs/argon2";
import type { AccountErrorText } from "./errors.js";

/**
 * argon2id with the minimum parameters of OWASP's Password Storage Cheat Sheet (m = 19 MiB, t = 2,
 * p = 1): about 10 ms a hash, memory-hard against GPU guessing.
 */
const ARGON2ID = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
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
