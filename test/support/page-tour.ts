import type { Page } from "playwright-core";
import { PASSWORD_CONFIRMATION_WINDOW_SECONDS } from "../../src/accounts/password-confirmation.js";
import { publish } from "../activity/support.js";
import { addClient, authorizeUrl, issueCode, PASSWORD, type TestClient, WEB_CLIENT } from "../oauth/support.js";
import { referenceTotp } from "../second-factor/reference-totp.js";
import type { TestApp } from "./app.js";
import { submitLoginForm } from "./browser.js";
import { FormClient } from "./browser-form.js";
import { accepted } from "./results.js";

/**
 * Every page Keystream renders, in every state a person meets (issue 19), visited in a real
 * browser: the accessibility scan (test/e2e/accessibility.e2e.test.ts) and `npm run screenshots`
 * (scripts/screenshots.ts) walk the same tour, so a new page added here is both checked and shown.
 */

export const DESKTOP_CLIENT: TestClient = {
  name: "Desktop Sync",
  clientId: "desktopclientid0123456789abcdefghijklmnopqrst",
  secret: "desktopclientsecret0123456789abcdefghijklmnopq",
  redirectUri: "http://localhost:*",
};

export const LONG_CLIENT: TestClient = {
  name: "Notes with a rather long application name",
  clientId: "notesclientid0123456789abcdefghijklmnopqrstuvwx",
  secret: "notesclientsecret0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL",
  redirectUri: "https://notes.example.com/oauth/callback/with/a/long/path?tenant=example-tenant",
};

/**
 * Users alice (with an app password, an authorized application, activities) and root (admin); three
 * clients; two throttled client addresses.
 */
export async function seedTour(t: TestApp): Promise<void> {
  accepted(
    await t.services.users.create({ uid: "alice", password: PASSWORD, displayName: "Alice Liddell", email: "alice@example.com" }),
  );
  accepted(
    await t.services.users.create({ uid: "bob", password: PASSWORD, displayName: "Bob Builder", email: "bob@example.com" }),
  );
  accepted(await t.services.users.create({ uid: "root", password: PASSWORD, displayName: "Rory Admin", isAdmin: true }));
  accepted(await t.services.groups.create("editors", "Editors"));
  accepted(await t.services.groups.addMember("editors", "alice"));
  await addClient(t, WEB_CLIENT);
  await addClient(t, { ...DESKTOP_CLIENT, trusted: true });
  await addClient(t, { ...LONG_CLIENT, allowSubdomains: true, resourceServer: true });
  accepted(await t.services.appPasswords.create("alice", "Laptop (rclone)"));
  // Failed logins from two addresses: the admin page's throttled-addresses table has rows.
  for (const address of ["203.0.113.7", "2001:db8:7:8::20"]) {
    for (let attempt = 0; attempt < 3; attempt++) await new FormClient(t.app, address).login("bob", "not the password");
  }
  await issueCode(t, LONG_CLIENT);
  const file = (path: string, id: number, subject: string, user = "alice") => ({
    app: "files",
    type: subject.startsWith("created") ? "file_created" : "file_changed",
    affecteduser: "alice",
    user,
    subject,
    subjectparams: subject.endsWith("_by")
      ? [
          { type: "file", value: path, id },
          { type: "user", value: user },
        ]
      : [{ type: "file", value: path, id }],
    object_type: "files",
    object_id: id,
    object_name: path,
  });
  await publish(t, [
    file("/Documents/Quarterly report 2026.odt", 11, "created_self"),
    file(
      "/Photos/Holidays/2026/Lisbon/very-long-file-name-that-wraps-on-a-phone-IMG_20260712_101112.jpg",
      12,
      "changed_by",
      "bob",
    ),
    file("/Notes/todo.md", 13, "changed_self"),
  ]);
}

export interface TourStop {
  /** File-name friendly: `login`, `consent`, … */
  name: string;
  /** Brings `page` to this stop (navigations, logins; `app`'s clock, to age a session); the page then shows it. */
  visit(page: Page, baseUrl: string, app: Pick<TestApp, "clock" | "services">): Promise<void>;
}

async function logInAs(page: Page, baseUrl: string, uid: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${baseUrl}/index.php/login`);
  await submitLoginForm(page, uid, PASSWORD);
}

/** bob's TOTP secret, as the setup page showed it (the tour's later stops answer with its codes). */
let bobTotpSecret = "";

/** The tour, in order: each stop may rely on the session the previous ones left. */
export const TOUR: readonly TourStop[] = [
  {
    name: "login",
    visit: async (page, base) => {
      await page.context().clearCookies();
      await page.goto(`${base}/index.php/login`);
    },
  },
  {
    name: "login-error",
    visit: async (page) => submitLoginForm(page, "alice", "not the password"),
  },
  {
    name: "login-for-client",
    visit: async (page, base) => {
      await page.goto(`${base}${authorizeUrl(WEB_CLIENT, { state: "tour" })}`);
    },
  },
  {
    name: "consent",
    visit: async (page) => submitLoginForm(page, "alice", PASSWORD),
  },
  {
    name: "consent-openid",
    visit: async (page, base) => {
      await page.goto(`${base}${authorizeUrl(WEB_CLIENT, { scope: "openid profile email", nonce: "n" })}`);
    },
  },
  {
    // The form_post page (OAuth 2.0 Form Post Response Mode), held still: its script, which would
    // submit it at once, is not served for this stop (prompt=none answers consent_required here).
    name: "form-post",
    visit: async (page, base) => {
      await page.route("**/apps/oauth2/js/form-post.js", (route) => route.abort());
      await page.goto(
        `${base}${authorizeUrl(WEB_CLIENT, { scope: "openid", response_mode: "form_post", prompt: "none", state: "tour" })}`,
      );
      await page.unroute("**/apps/oauth2/js/form-post.js");
    },
  },
  {
    name: "authorize-error-unknown-client",
    visit: async (page, base) => {
      await page.goto(`${base}${authorizeUrl({ ...WEB_CLIENT, clientId: "no-such-client" })}`);
    },
  },
  {
    name: "authorize-error-redirect-uri",
    visit: async (page, base) => {
      await page.goto(`${base}${authorizeUrl(WEB_CLIENT, { redirect_uri: "https://elsewhere.example/cb" })}`);
    },
  },
  {
    name: "authorize-error-missing-parameter",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/apps/oauth2/authorize?response_type=code`);
    },
  },
  {
    name: "switch-user",
    visit: async (page, base) => {
      await page.goto(`${base}${authorizeUrl(WEB_CLIENT, { user: "bob" })}`);
    },
  },
  {
    name: "authorization-successful",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/apps/oauth2/authorization-successful`);
    },
  },
  {
    name: "activity",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/apps/activity/`);
    },
  },
  {
    name: "activity-empty",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/apps/activity/files_sharing`);
    },
  },
  {
    name: "personal-settings",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/settings/personal`);
    },
  },
  {
    name: "app-password-created",
    visit: async (page) => {
      await page.fill("#app-password-name", "Phone");
      await Promise.all([page.waitForNavigation(), page.click("#create-app-password button[type=submit]")]);
    },
  },
  {
    // The session's password confirmation has aged: creating an app password asks for the password.
    name: "password-confirmation",
    visit: async (page, _base, app) => {
      app.clock.advance(PASSWORD_CONFIRMATION_WINDOW_SECONDS + 60);
      await page.fill("#app-password-name", "Tablet");
      await Promise.all([page.waitForNavigation(), page.click("#create-app-password button[type=submit]")]);
    },
  },
  {
    name: "password-confirmation-wrong",
    visit: async (page) => {
      await page.fill("#confirm-password", "not the password");
      await Promise.all([page.waitForNavigation(), page.click("#confirm-password-submit")]);
      await page.waitForSelector("#confirm-password-error");
    },
  },
  {
    // The right password: the create goes on and shows the new app password.
    name: "password-confirmed",
    visit: async (page) => {
      await page.fill("#confirm-password", PASSWORD);
      await Promise.all([page.waitForNavigation(), page.click("#confirm-password-submit")]);
      await page.waitForSelector("#new-app-password");
    },
  },
  {
    // A later visit, the confirmation aged again: the create form itself carries the password field.
    name: "personal-settings-confirm-password",
    visit: async (page, base, app) => {
      app.clock.advance(PASSWORD_CONFIRMATION_WINDOW_SECONDS + 60);
      await page.goto(`${base}/index.php/settings/personal`);
      await page.waitForSelector("#app-password-confirm-password");
    },
  },
  {
    name: "not-found",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/apps/activity/no-such-filter`);
    },
  },
  {
    name: "admin-forbidden",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/settings/admin`);
    },
  },
  {
    name: "logout-link-invalid",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/logout?requesttoken=wrong`);
    },
  },
  {
    name: "oidc-logout-confirm",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/apps/oauth2/end-session`);
    },
  },
  {
    // Second factors (bob has none yet): personal settings' TOTP setup, its QR code and key.
    name: "second-factor-setup",
    visit: async (page, base) => {
      await logInAs(page, base, "bob");
      await page.goto(`${base}/index.php/settings/personal#second-factors`);
      await Promise.all([page.waitForNavigation(), page.click("#totp-begin-form button[type=submit]")]);
      await page.waitForSelector("#totp-qr");
    },
  },
  {
    name: "second-factor-setup-wrong-code",
    visit: async (page) => {
      await page.fill("#totp-enable-code", "000000");
      await Promise.all([page.waitForNavigation(), page.click("#totp-enable-submit")]);
      await page.waitForSelector("#totp-error");
    },
  },
  {
    // The code the app would show now, by the test's own RFC 6238 implementation.
    name: "second-factor-enabled",
    visit: async (page, base, app) => {
      await page.goto(`${base}/index.php/settings/personal#second-factors`);
      bobTotpSecret = (await page.textContent("#totp-secret")) ?? "";
      await page.fill("#totp-enable-code", referenceTotp(bobTotpSecret, app.clock.nowSeconds()));
      await Promise.all([page.waitForNavigation(), page.click("#totp-enable-submit")]);
      await page.waitForSelector("#totp-enabled");
    },
  },
  {
    name: "recovery-codes",
    visit: async (page) => {
      await Promise.all([page.waitForNavigation(), page.click("#recovery-codes-form button[type=submit]")]);
      await page.waitForSelector("#new-recovery-codes");
    },
  },
  {
    // The next login of bob: the password, then the challenge with both factors offered.
    name: "second-factor-challenge",
    visit: async (page, base) => {
      await logInAs(page, base, "bob");
      await page.waitForSelector("#challenge-totp");
    },
  },
  {
    name: "second-factor-challenge-wrong",
    visit: async (page) => {
      await page.fill("#challenge-totp-code", "000000");
      await Promise.all([page.waitForNavigation(), page.click("#challenge-totp-submit")]);
      await page.waitForSelector("#challenge-error");
    },
  },
  {
    // The right code of the next time step, then TOTP disabled again: the tour can be walked again.
    name: "second-factor-disabled",
    visit: async (page, base, app) => {
      app.clock.advance(30);
      await page.fill("#challenge-totp-code", referenceTotp(bobTotpSecret, app.clock.nowSeconds()));
      await Promise.all([page.waitForNavigation(), page.click("#challenge-totp-submit")]);
      await page.goto(`${base}/index.php/settings/personal#second-factors`);
      await Promise.all([page.waitForNavigation(), page.click("#totp-disable-form button[type=submit]")]);
      await page.waitForSelector("#totp-disabled");
    },
  },
  {
    name: "admin-users",
    visit: async (page, base) => {
      await logInAs(page, base, "root");
      await page.goto(`${base}/index.php/settings/admin`);
    },
  },
  {
    // The users area searched: the search kept in its box, the matching rows.
    name: "admin-users-search",
    visit: async (page) => {
      await page.fill("#user-search", "li");
      await Promise.all([page.waitForNavigation(), page.click("#user-search-form button[type=submit]")]);
      await page.waitForSelector("#user-list");
    },
  },
  {
    // One user's page after a change: the notice at the top (post/redirect/get).
    name: "admin-user",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/settings/admin/users/alice`);
      await page.fill("#user-display-name", "Alice Pleasance Liddell");
      await Promise.all([page.waitForNavigation(), page.click("#user-profile-form button[type=submit]")]);
      await page.waitForSelector("#user-notice");
    },
  },
  {
    // A refused address (another account's) on a user's page: the reason at the top, the form as sent.
    name: "admin-user-refused",
    visit: async (page) => {
      await page.fill("#user-email", "BOB@example.com");
      await Promise.all([page.waitForNavigation(), page.click("#user-profile-form button[type=submit]")]);
      await page.waitForSelector("#user-error");
    },
  },
  {
    name: "admin-settings",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/settings/admin/settings`);
    },
  },
  {
    // A host setting refused with occ's message, the value kept in its field.
    name: "admin-settings-refused",
    visit: async (page) => {
      await page.fill("#setting-session-lifetime-value", "ten minutes");
      await Promise.all([page.waitForNavigation(), page.click("#setting-session-lifetime button[type=submit]")]);
      await page.waitForSelector("#host-settings-error");
    },
  },
  {
    name: "admin-applications",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/settings/admin/applications`);
    },
  },
  {
    // A refusal of the OAuth client administration, in the reader's language (issue 19).
    name: "admin-client-refused",
    visit: async (page) => {
      await page.fill("#oauth2-name", "Local tool");
      await page.fill("#oauth2-redirect", "http://localhost:8080/callback");
      await page.check('#oauth2-add-client input[name="trusted"]');
      await Promise.all([page.waitForNavigation(), page.click("#oauth2-add-client button[type=submit]")]);
      await page.waitForSelector("#oauth2-client-error");
    },
  },
  {
    // The console's groups area, with the members of a group opened (its add and remove forms).
    name: "admin-groups",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/settings/admin/groups`);
      await page.click("#group-1 details summary");
    },
  },
  {
    name: "admin-security",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/settings/admin/security`);
    },
  },
  {
    // The audit log filtered: bob's refused sign-ins (seeded above) from a date on.
    name: "admin-security-audit-filtered",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/settings/admin/security?user=bob&kind=sign_in.failed&since=2000-01-01#audit-title`);
      await page.waitForSelector("#audit-list");
    },
  },
  {
    // Login Flow v2's grant page: the name the application reported (as long as it may be), the
    // address and the time the flow was started.
    name: "login-flow-grant",
    visit: async (page, base) => {
      const started = await page.request.post(`${base}/index.php/login/v2`, {
        headers: { "user-agent": "A very talkative application that describes itself at great length (Desktop)" },
      });
      await page.goto((await started.json()).login);
    },
  },
  {
    name: "device-code",
    visit: async (page, base) => {
      await logInAs(page, base, "alice");
      await page.goto(`${base}/index.php/apps/oauth2/device?user_code=wdjb-mjht`);
    },
  },
  {
    name: "device-code-unknown",
    visit: async (page) => {
      await page.click("#device-continue");
    },
  },
  {
    name: "device-consent",
    visit: async (page, base) => {
      const started = await page.request.post(`${base}/index.php/apps/oauth2/api/v1/device_authorization`, {
        form: { scope: "openid profile email" },
        headers: { authorization: `Basic ${Buffer.from(`${WEB_CLIENT.clientId}:${WEB_CLIENT.secret}`).toString("base64")}` },
      });
      await page.goto((await started.json()).verification_uri_complete);
      await page.click("#device-continue");
    },
  },
  {
    name: "device-approved",
    visit: async (page) => {
      await page.click("#authorize");
    },
  },
  {
    name: "oidc-logout-invalid",
    visit: async (page, base) => {
      await page.goto(`${base}/index.php/apps/oauth2/end-session?id_token_hint=not-a-token`);
    },
  },
  {
    name: "logged-out",
    visit: async (page, base) => {
      await page.context().clearCookies();
      await page.goto(`${base}/index.php/apps/oauth2/end-session`);
    },
  },
  {
    // Second factors enforced: a user without one is led to set one up right after the password.
    // Enforcement is off again once the page is shown, so the rest of the tour (and another walk)
    // is as before.
    name: "second-factor-enforced-setup",
    visit: async (page, base, app) => {
      app.services.settings.set("twofactor_enforced", true);
      try {
        await logInAs(page, base, "alice");
        await page.waitForSelector("#setup-intro");
      } finally {
        app.services.settings.set("twofactor_enforced", false);
      }
    },
  },
];
