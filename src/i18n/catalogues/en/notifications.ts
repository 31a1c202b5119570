/** Notifications (src/notifications/domain/render.ts) and their personal settings section, English. */
export const notifications = {
  "login_flow_granted.subject": "New device connected: {{name}}",
  "login_flow_granted.message":
    "An application that calls itself “{{name}}” was granted access to your account with Login Flow and received an app password. If this was not you, revoke it in your personal settings and change your password.",
  "oauth_client_authorized.subject": "{{name}} was authorized to access your account",
  "oauth_client_authorized.message":
    "The application “{{name}}” can now access your account. If this was not you, revoke its access in your personal settings and change your password.",
  "app_password_created.subject": "New app password: {{name}}",
  "app_password_created.message":
    "An app password named “{{name}}” was created for your account. If this was not you, revoke it in your personal settings and change your password.",
  "password_changed.subject": "Your password was changed",
  "password_changed.message":
    "The password of your account was changed. If this was not you, contact your administrator at once.",
  "second_factor_added.subject": "Second factor added: {{provider}}",
  "second_factor_added.message":
    "{{provider}} now protects your account. If this was not you, contact your administrator at once.",
  "second_factor_removed.subject": "Second factor removed: {{provider}}",
  "second_factor_removed.message":
    "{{provider}} no longer protects your account. If this was not you, contact your administrator at once.",
  "settings.title": "Notifications",
  "settings.intro":
    "Keystream tells you, in your desktop and mobile apps, when something changes who can access your account. Messages from your administrator always reach you.",
  "settings.legend": "Notify me when",
  "settings.switch.login_flow": "a device or application connects with Login Flow",
  "settings.switch.oauth_client": "an application is authorized to access my account",
  "settings.switch.app_password": "an app password is created",
  "settings.switch.password": "my password is changed",
  "settings.switch.second_factor": "a second factor is added or removed",
  "settings.save": "Save",
  "settings.saved": "Your notification settings were saved.",
};
