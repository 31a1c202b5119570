import type { FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { userTranslator } from "../i18n.js";
import { answerInSection, sendAdminPage } from "./page.js";
import { takeFlash } from "./settings-flash.js";
import type { FormValues } from "./settings-sections.js";
import { userPageBody } from "./views/admin-user.js";

/** What a refused form on the user's page shows: the reason, and the form's fields as sent. */
export interface UserPageRefusal {
  message: string;
  formValues?: FormValues | undefined;
}

/**
 * One user's page: what the account is (state, role, last sign-in, second factors, how many
 * sessions and credentials it has) and every change an administrator makes to it, each a form
 * whose answer is a redirect back here with a notice at the top (post/redirect/get,
 * settings-flash.ts). A refused change is shown at the top with the form as it was sent.
 */
export async function sendUserPage(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  uid: string,
  refusal?: UserPageRefusal,
  status = 200,
): Promise<FastifyReply> {
  const translator = userTranslator(request, principal);
  const { t } = translator;
  const { users, groups, sessions, appPasswords, oauth, secondFactors } = request.server.services;
  const listing = await users.requireListing(uid).catch(() => undefined);
  const user = listing?.ok ? listing.value : undefined;
  if (!user) {
    const text = t("accountErrors:noSuchUser", { uid });
    return answerInSection(request, reply, principal, {
      page: "users",
      sectionId: "users",
      ok: false,
      text,
      id: "users-error",
      status: 404,
    });
  }
  const flash = request.method === "GET" ? takeFlash(request, reply, principal) : undefined;
  const [memberships, live, passwords, clients, factors] = await Promise.all([
    groups.groupsOf(uid),
    sessions.listOf(uid),
    appPasswords.list(uid),
    oauth.authorizedClients(uid),
    secondFactors.enabledByUser([uid]),
  ]);
  const body = userPageBody(translator, {
    user,
    memberships,
    counts: { sessions: live.length, appPasswords: passwords.length, applications: clients.length },
    factors: factors.get(uid),
    self: uid === principal.user.uid,
    csrfToken: principal.session?.csrfToken ?? "",
    refusal: refusal?.message,
    flash: flash?.message,
    formValues: refusal?.formValues ?? {},
  });
  return sendAdminPage(request, reply, principal, "users", { heading: t("console:user.title", { uid }), body }, status);
}
