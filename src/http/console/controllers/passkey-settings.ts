import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { siteOrigin } from "../../base-url.js";
import { userTranslator } from "../../i18n.js";
import { CONFIRMED_SESSION_FORM, guarded, SESSION_FORM } from "../../plugins/route-guards.js";
import { answerInSection, formField } from "../page.js";
import { passwordConfirmationNeeded } from "../password-confirmation.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { passkeysSection } from "../views/passkeys.js";

const PATH = `${SETTINGS_PAGES.personal.path}/passkeys`;
const SECTION_ID = "passkeys";
const section = { page: "personal", sectionId: SECTION_ID } as const;

/**
 * Personal settings' passkeys (docs/security.md "Passkeys"): the user's passkeys with their name,
 * when added and last used, each removable; and a new one registered by the passkey script
 * (http/passkey-scripts.ts). Asking for the registration options and removing a passkey need a
 * recent password confirmation (CONFIRMED_SESSION_FORM), as every change of how the account is
 * proven does; the registration's answer is accepted only for a challenge handed out to the same
 * user after that confirmation.
 */
export async function passkeySettingsRoutes(app: FastifyInstance): Promise<void> {
  const { passkeys, users } = app.services;

  app.settingsSections.push({
    id: SECTION_ID,
    page: "personal",
    order: 16,
    render: async ({ request, principal, csrfToken, flash, translator }) => {
      const list = await passkeys.list(principal.user.uid);
      const confirm = await passwordConfirmationNeeded(request, principal);
      return passkeysSection(translator, { path: PATH, passkeys: list, csrfToken, confirm, flash });
    },
  });

  await app.register(
    guarded(CONFIRMED_SESSION_FORM, (forms) => {
      forms.post(`${PATH}/options`, async (request, reply) => {
        const { user } = request.principal;
        const found = await users.find(user.uid);
        return json(
          reply,
          200,
          await passkeys.registrationOptions(user.uid, found?.displayName ?? user.uid, siteOrigin(request)),
        );
      });

      forms.post(`${PATH}/remove`, removePasskey);
    }),
  );

  await app.register(
    guarded(SESSION_FORM, (forms) => {
      forms.post(PATH, async (request, reply) => {
        const { principal } = request;
        const { uid } = principal.user;
        const { t } = userTranslator(request, principal);
        const name = (formField(request, "name") ?? "").trim() || t("secondFactor:passkey.defaultName");
        const result = await passkeys.register(uid, name, formField(request, "response") ?? "", siteOrigin(request));
        if (!result.ok) {
          request.log.warn(
            { event: "passkey_registration_failed", uid, reason: result.refusal, ip: request.ip },
            "passkey not registered",
          );
          return json(reply, 400, { error: t("secondFactor:passkey.failed") });
        }
        request.log.info({ event: "second_factor_enabled", uid, provider: "webauthn", ip: request.ip }, "passkey registered");
        return json(reply, 200, { redirect: `${SETTINGS_PAGES.personal.path}#${SECTION_ID}` });
      });
    }),
  );
}

function json(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.status(status).header("cache-control", "no-store").send(body);
}

async function removePasskey(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { principal } = request;
  const { uid } = principal.user;
  const { passkeys, secondFactors, recoveryCodes } = request.server.services;
  const { t } = userTranslator(request, principal);
  const removed = await passkeys.remove(uid, formField(request, "credential") ?? "");
  if (!removed) {
    const text = t("secondFactor:passkey.noSuch");
    return answerInSection(request, reply, principal, {
      ...section,
      ok: false,
      text,
      id: "passkey-error",
      role: "alert",
      status: 404,
    });
  }
  // Recovery codes stand in for a factor; without one left they would only be a way around it later.
  if (!(await secondFactors.hasSecondFactor(uid))) await recoveryCodes.disableFor(uid);
  request.log.info({ event: "second_factor_disabled", uid, provider: "webauthn", by: uid, ip: request.ip }, "passkey removed");
  return answerInSection(request, reply, principal, {
    ...section,
    ok: true,
    text: t("secondFactor:passkey.removed"),
    id: "passkey-removed",
  });
}
