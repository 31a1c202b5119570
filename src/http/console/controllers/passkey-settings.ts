import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../../accounts/authentication.js";
import { siteOrigin } from "../../base-url.js";
import { html, type SafeHtml } from "../../html.js";
import { userTranslator } from "../../i18n.js";
import { confirmPasswordField } from "../../pages/password-confirmation.js";
import { passkeyScripts } from "../../passkey-scripts.js";
import { CONFIRMED_SESSION_FORM, guarded, SESSION_FORM } from "../../plugins/route-guards.js";
import { formField, sendSettingsPage } from "../page.js";
import { passwordConfirmationNeeded } from "../password-confirmation.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { formatDate } from "../views/format.js";

const PATH = `${SETTINGS_PAGES.personal.path}/passkeys`;
const SECTION_ID = "passkeys";

/**
 * Personal settings' passkeys (docs/security.md "Passkeys"): the user's passkeys with their name,
 * when added and last used, each removable; and a new one registered by the passkey script
 * (http/passkey-scripts.ts). Asking for the registration options and removing a passkey need a
 * recent password confirmation (CONFIRMED_SESSION_FORM), as every change of how the account is
 * proven does; the registration's answer is accepted only for a challenge handed out to the same
 * user after that confirmation.
 */
export async function passkeySettingsRoutes(app: FastifyInstance): Promise<void> {
  const { passkeys, secondFactors, recoveryCodes, users } = app.services;

  app.settingsSections.push({
    id: SECTION_ID,
    page: "personal",
    order: 16,
    render: async ({ request, principal, csrfToken, flash, translator }) => {
      const { t } = translator;
      const list = await passkeys.list(principal.user.uid);
      const confirm = await passwordConfirmationNeeded(request, principal);
      const col = {
        name: t("secondFactor:passkey.columnName"),
        created: t("secondFactor:passkey.columnCreated"),
        lastUsed: t("secondFactor:passkey.columnLastUsed"),
      };
      const table =
        list.length === 0
          ? html`<p id="passkey-none">${t("secondFactor:passkey.none")}</p>`
          : html`<table class="responsive" id="passkey-list"><caption>${t("secondFactor:passkey.tableCaption")}</caption><thead><tr><th scope="col">${col.name}</th><th scope="col">${col.created}</th><th scope="col">${col.lastUsed}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${list.map(
  (p) =>
    html`<tr><td data-label="${col.name}">${p.name}</td><td data-label="${col.created}">${formatDate(translator, p.createdAt)}</td><td data-label="${col.lastUsed}">${formatDate(translator, p.lastUsedAt)}</td><td class="actions-cell"><form method="post" action="${PATH}/remove"><input type="hidden" name="requesttoken" value="${csrfToken}"><input type="hidden" name="credential" value="${p.id}">${confirm ? confirmPasswordField(translator, `passkey-remove-${p.id.slice(0, 16)}`) : ""}<button type="submit" class="danger small" aria-label="${t("secondFactor:passkey.removeNamed", { name: p.name })}">${t("secondFactor:passkey.remove")}</button></form></td></tr>`,
)}
</tbody></table>`;
      return html`<h3>${t("secondFactor:provider.webauthn")}</h3>
<p class="muted">${t("secondFactor:passkey.settingsIntro")}</p>
${flash ?? ""}
${table}
<form method="post" action="${PATH}" id="passkey-add-form" data-passkey-register data-options="${PATH}/options" data-status="passkey-add-status" data-working="${t("secondFactor:passkey.working")}" data-failed="${t("secondFactor:passkey.failed")}" data-confirm-failed="${t("secondFactor:passkey.confirmFailed")}" data-unsupported="${t("secondFactor:passkey.unsupported")}">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="passkey-name">${t("secondFactor:passkey.nameLabel")}</label>
<input type="text" id="passkey-name" name="name" maxlength="64" autocomplete="off">
${confirm ? confirmPasswordField(translator, "passkey-add") : ""}
<div class="actions"><button type="submit" id="passkey-add-submit">${t("secondFactor:passkey.add")}</button></div>
<p id="passkey-add-status" role="status" aria-live="polite"></p>
<noscript><p class="muted">${t("secondFactor:passkey.needsScript")}</p></noscript>
</form>
${passkeyScripts()}`;
    },
  });

  const json = (reply: FastifyReply, status: number, body: unknown) =>
    reply.status(status).header("cache-control", "no-store").send(body);
  const answer = (request: FastifyRequest, reply: FastifyReply, principal: Principal, status: number, message: SafeHtml) =>
    sendSettingsPage(request, reply, principal, "personal", { sectionId: SECTION_ID, message }, status);

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

      forms.post(`${PATH}/remove`, async (request, reply) => {
        const { principal } = request;
        const { uid } = principal.user;
        const { t } = userTranslator(request, principal);
        const removed = await passkeys.remove(uid, formField(request, "credential") ?? "");
        if (!removed) {
          return answer(
            request,
            reply,
            principal,
            404,
            html`<p class="error" id="passkey-error" role="alert">${t("secondFactor:passkey.noSuch")}</p>`,
          );
        }
        // Recovery codes stand in for a factor; without one left they would only be a way around it later.
        if (!(await secondFactors.hasSecondFactor(uid))) await recoveryCodes.disableFor(uid);
        request.log.info(
          { event: "second_factor_disabled", uid, provider: "webauthn", by: uid, ip: request.ip },
          "passkey removed",
        );
        return answer(
          request,
          reply,
          principal,
          200,
          html`<p class="notice" id="passkey-removed">${t("secondFactor:passkey.removed")}</p>`,
        );
      });
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
