/** Login Flow v2's browser pages (src/http/pages/login-flow.ts), English. */
export const loginFlow = {
  loginNote:
    "An application that calls itself “{{name}}” wants to connect to your account. Please log in first to grant it access.",
  "grant.title": "Connect to your account",
  "grant.request": "An application asks for access to your account.",
  "grant.reportedName": "Name reported by the application",
  "grant.startedFrom": "Started from the address",
  "grant.startedAt": "Started",
  "grant.claim":
    "The name is the application’s own description of itself: Keystream cannot check it. The address and the time are what Keystream saw: grant access only if they match the device you are connecting.",
  "grant.account":
    "You are logged in as {{user}}. Granting access creates an app password for this application; you can revoke it in your personal settings.",
  "grant.warning":
    "If you did not just start connecting a device or application yourself, someone may be trying to trick you into giving them access to your data: cancel.",
  "grant.allow": "Grant access",
  "grant.cancel": "Cancel",
  "done.title": "Account connected",
  "done.text":
    "The application that calls itself {{name}} is now connected to your account. You can close this window and return to the application.",
  "cancelled.title": "Access denied",
  "cancelled.text": "The application was not given access to your account. You can close this window.",
  "invalid.title": "Link not valid",
  "invalid.text": "This login link is not valid, or has expired or been used. Start the login again from your application.",
} as const;
