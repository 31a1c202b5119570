import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../../accounts/authentication.js";
import { type AccountErrorText, type AccountRefusal, accountRefusal } from "../../../accounts/errors.js";
import { endEverySignIn, replacePassword } from "../../../accounts/password-change.js";
import { ADMIN_GROUP } from "../../../groups/domain/group-id.js";
import { say, type Translator } from "../../../i18n/index.js";
import type { Refusal } from "../../../refusal.js";
import type { Services } from "../../../services.js";
import { userTranslator } from "../../i18n.js";
import { ADMIN_FORM, guarded } from "../../plugins/route-guards.js";
import { refusalStatus } from "../../refusals.js";
import { USER_NOTICE_ID, USERS_FORM_PATH, userPagePath } from "../admin-user-paths.js";
import { formField } from "../page.js";
import { redirectWithFlash } from "../settings-flash.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { sendUserPage } from "../user-page.js";
import { outcomeParagraph } from "../views/messages.js";

/** What a change did, in the reader's language; and where to go after it (the user's page unless it is gone). */
interface Outcome {
  say: (t: Translator["t"]) => string;
  toList?: boolean;
}

type Change = (request: FastifyRequest, uid: string, principal: Principal) => Promise<Outcome | Refusal>;

/** Fields a refused form gets back (never a password). */
const REFILL: Readonly<Record<string, readonly string[]>> = { profile: ["display_name", "email"] };

/**
 * The administrator's changes to one user, each `POST /index.php/settings/users/<uid>/<action>`:
 * done, then a 303 to the user's page (the users area after a deletion) whose top says what
 * happened (post/redirect/get: a reload repeats nothing). A refused change (an account or group
 * refusal) is the user's page again with the reason at the top and the form as sent, 400 (404: no such user).
 * Refusals: an administrator's own account is not disabled, deleted, signed out or demoted here,
 * and the last administrator never leaves `admin` (Groups.removeMember, GroupStore's transaction).
 */
export async function adminUserActionRoutes(app: FastifyInstance): Promise<void> {
  await app.register(
    guarded(ADMIN_FORM, (forms) => {
      accountChanges(forms, app.services);
      roleAndSignInChanges(forms, app.services);
    }),
  );
}

/** Registers one change: its form's route, the refusal answer, and the redirect with its notice. */
function administer(forms: FastifyInstance, action: string, change: Change): void {
  forms.post(`${USERS_FORM_PATH}/:uid/${action}`, async (request, reply): Promise<FastifyReply> => {
    const { principal } = request;
    const uid = (request.params as { uid: string }).uid;
    const translator = userTranslator(request, principal);
    const outcome = await change(request, uid, principal);
    if ("ok" in outcome) {
      const formValues = Object.fromEntries((REFILL[action] ?? []).map((name) => [name, formField(request, name)]));
      const message = say(translator, outcome.phrase);
      return sendUserPage(request, reply, principal, uid, { message, formValues }, refusalStatus(outcome));
    }
    const location = outcome.toList ? SETTINGS_PAGES.users.path : userPagePath(uid);
    const sectionId = outcome.toList ? "users" : USER_NOTICE_ID;
    return redirectWithFlash(request, reply, principal, location, {
      sectionId,
      message: outcomeParagraph(true, outcome.say(translator.t), outcome.toList ? "users-notice" : USER_NOTICE_ID, "status"),
    });
  });
}

/** An administrator does not disable, delete or sign out themself here: that would lock the console's user out. */
function ownAccountRefusal(uid: string, principal: Principal, text: AccountErrorText = "ownAccount"): AccountRefusal | undefined {
  return uid === principal.user.uid ? accountRefusal("invalid_uid", text) : undefined;
}

/** Enable, disable, delete; a new password; the profile. */
function accountChanges(forms: FastifyInstance, services: Services): void {
  const { users, sessions, log } = services;
  for (const enabled of [true, false]) {
    administer(forms, enabled ? "enable" : "disable", async (_request, uid, principal) => {
      const refusal = ownAccountRefusal(uid, principal);
      if (refusal) return refusal;
      const changed = await users.setEnabled(uid, enabled);
      if (!changed.ok) return changed;
      log.info(
        { event: enabled ? "user_enabled" : "user_disabled", uid, by: principal.user.uid },
        "user state changed on the admin page",
      );
      return { say: (t) => t(enabled ? "settings:users.wasEnabled" : "settings:users.wasDisabled", { uid }) };
    });
  }

  administer(forms, "delete", async (_request, uid, principal) => {
    const refusal = ownAccountRefusal(uid, principal);
    if (refusal) return refusal;
    const deleted = await users.delete(uid);
    if (!deleted.ok) return deleted;
    log.info({ event: "user_deleted", uid, by: principal.user.uid }, "user deleted on the admin page");
    return { say: (t) => t("settings:users.deleted", { uid }), toList: true };
  });

  administer(forms, "password", async (request, uid, principal) => {
    // The administrator's own browser session stays when they reset their own password.
    const replaced = await replacePassword(users, sessions, uid, formField(request, "password") ?? "", {
      keepSessionToken: uid === principal.user.uid ? principal.session?.token : undefined,
    });
    if (!replaced.ok) return replaced;
    log.info({ event: "password_reset", uid, by: principal.user.uid }, "password reset on the admin page");
    return { say: (t) => t("settings:users.passwordReset", { uid }) };
  });

  // The same rules as `./occ user:modify` (UserDirectory.updateProfile): a changed address is unverified.
  administer(forms, "profile", async (request, uid, principal) => {
    const displayName = (formField(request, "display_name") ?? "").trim();
    const email = (formField(request, "email") ?? "").trim();
    const updated = await users.updateProfile(uid, { displayName, email });
    if (!updated.ok) return updated;
    log.info({ event: "user_modified", uid, by: principal.user.uid }, "profile changed on the admin page");
    return { say: (t) => t("console:user.profileSaved", { uid }) };
  });
}

/** The administrator role (membership of `admin`), and ending every sign-in. */
function roleAndSignInChanges(forms: FastifyInstance, services: Services): void {
  const { users, groups, sessions, deviceCredentials, log } = services;
  // Being an administrator is membership of the group admin (src/groups), as `./occ group:add-member admin`.
  administer(forms, "promote", async (_request, uid, principal) => {
    const added = await groups.addMember(ADMIN_GROUP, uid);
    if (!added.ok) return added;
    log.info({ event: "user_promoted", uid, by: principal.user.uid }, "user made an administrator on the admin page");
    return { say: (t) => t("console:user.promoted", { uid }) };
  });

  administer(forms, "demote", async (_request, uid, principal) => {
    const refusal = ownAccountRefusal(uid, principal, "ownAdminRole");
    if (refusal) return refusal;
    const removed = await groups.removeMember(ADMIN_GROUP, uid);
    if (!removed.ok) return removed;
    log.info({ event: "user_demoted", uid, by: principal.user.uid }, "administrator role removed on the admin page");
    return { say: (t) => t("console:user.demoted", { uid }) };
  });

  administer(forms, "sign-out", async (_request, uid, principal) => {
    const refusal = ownAccountRefusal(uid, principal, "ownSignIns");
    if (refusal) return refusal;
    const user = await users.require(uid);
    if (!user.ok) return user;
    const ended = await endEverySignIn(sessions, deviceCredentials, uid);
    log.info(
      { event: "user_signed_out", uid, by: principal.user.uid, ...ended },
      "every sign-in of a user ended on the admin page",
    );
    return { say: (t) => t("console:user.signedOut", { uid, sessions: ended.sessions, credentials: ended.credentials }) };
  });
}
