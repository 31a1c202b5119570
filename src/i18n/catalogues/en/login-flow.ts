/** Login Flow v2's browser pages (src/http/pages/login-flow.ts), English. */
export const loginFlow = {
  loginNote: "“{{name}}” wants to connect to your account. Please log in first to grant it access.",
  "grant.title": "Connect to your account",
  "grant.client": "The application {{name}} asks for access to your account.",
  "grant.account":
    "You are logged in as {{user}}. Granting access creates an app password for this application; you can revoke it in your personal settings.",
  "grant.warning":
    "If you did not just start connecting a device or application yourself, someone may be trying to trick you into giving them access to your data: cancel.",
  "grant.allow": "Grant access",
  "grant.cancel": "Cancel",
  "done.title": "Account connected",
  "done.text": "{{name}} is now connected to your account. You can close this window and return to the application.",
  "cancelled.title": "Access denied",
  "cancelled.text": "The application was not given access to your account. You can close this window.",
  "invalid.title": "Link not valid",
  "invalid.text": "This login link is not valid, or has expired or been used. Start the login again from your application.",
} as const;
