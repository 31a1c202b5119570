/** The device authorization grant's verification pages (src/http/pages/oauth-device.ts, RFC 8628 §3.3), English. */
export const device = {
  loginNote: "Log in to connect a device or command-line application to your account.",
  "entry.title": "Connect a device",
  "entry.text": "Enter the code shown on your device or in your command-line application.",
  "entry.label": "Code",
  "entry.hint": "Eight letters, such as WDJB-MJHT; the dash is optional.",
  "entry.continue": "Continue",
  "entry.malformed": "This is not a valid code: a code has eight letters, such as WDJB-MJHT.",
  "entry.unknown": "This code is not valid, or has expired or already been used. Check it, or start again on your device.",
  "entry.throttled": "Too many wrong codes were entered. Please wait a while before you try again.",
  "confirm.title": "Authorize a device",
  "confirm.question": "The “{{name}}” application on a device would like permission to access your account",
  "confirm.code": "Continue only if your device shows this code: {{code}}",
  "confirm.warning":
    "If you did not just start signing in on a device yourself, someone may be trying to trick you into giving them access to your account: deny.",
  "approved.title": "Device connected",
  "approved.text": "The “{{name}}” application now has access to your account. You can return to your device.",
  "denied.title": "Access denied",
  "denied.text": "The device was not given access to your account. You can close this window.",
} as const;
