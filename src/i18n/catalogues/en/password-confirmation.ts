/** The password confirmation step (src/http/console/password-confirmation.ts, src/http/pages/password-confirmation.ts), English. */
export const passwordConfirmation = {
  title: "Confirm your password",
  intro:
    "This action gives a device or application lasting access to your account. You last entered your password more than {{minutes}} minutes ago: enter it again to go on.",
  fieldHint: "You last entered your password more than {{minutes}} minutes ago: enter it again to go on.",
  password: "Your password",
  confirm: "Confirm and continue",
  wrong: "The password is wrong.",
  throttled: "Too many failed attempts. Please try again later.",
} as const;
