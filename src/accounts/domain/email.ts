/**
 * How two e-mail addresses are compared when one account may not use another's: by this key.
 * Case is ignored in the whole address (RFC 5321 §2.4 lets the local part be case-sensitive, but
 * no mail system in use treats `Alice@` and `alice@` as two mailboxes, and Nextcloud stores the
 * primary address lowercased for the same comparison); Unicode is compared in NFC, so one
 * address typed with a composed or a decomposed accent is still one address. Computed here, in
 * one place, and stored with the address (`users.email_key`), so both databases compare exactly
 * the same way whatever their own `lower()` does with non-ASCII letters.
 */
export function emailKey(address: string): string {
  return address.normalize("NFC").toLowerCase();
}
