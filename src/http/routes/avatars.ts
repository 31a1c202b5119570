import type { FastifyInstance, FastifyRequest } from "fastify";
import { avatarUrlFor, MAX_AVATAR_BYTES } from "../../accounts/avatars.js";
import { baseUrl } from "../base-url.js";
import { html } from "../html.js";
import { userTranslator } from "../i18n.js";
import { parseMultipart } from "../multipart.js";
import { apiRead, guarded, SESSION_FORM } from "../plugins/route-guards.js";
import { sendSettingsPage } from "./settings.js";

const AVATAR_UPLOAD_PATH = "/index.php/settings/personal/avatar";
/** The upload form's parts: its CSRF token and the file, with room for a field a browser adds. */
const MAX_AVATAR_FORM_PARTS = 4;

/** The avatar's absolute URL, ownCloud's DAV avatar path (docs/upstream/owncloud-oauth2.md A.7). */
export function avatarUrl(request: FastifyRequest, uid: string, extension: string): string {
  return avatarUrlFor(baseUrl(request), uid, extension);
}

/**
 * Avatar serving (any authenticated user, as ownCloud; a token needs `profile`, the scope whose
 * `picture` claim points here), and the personal page's upload form.
 */
export async function avatarRoutes(app: FastifyInstance): Promise<void> {
  const { avatars, log } = app.services;

  await app.register(
    guarded(apiRead("profile"), (reads) => {
      reads.get("/remote.php/dav/avatars/:uid/:file", async (request, reply) => {
        const avatar = await avatars.get((request.params as { uid: string }).uid);
        if (!avatar) return reply.status(404).send({ error: "not_found", error_description: "No avatar." });
        return reply
          .header("content-type", avatar.contentType)
          .header("cache-control", "private, max-age=0, must-revalidate")
          .header("x-content-type-options", "nosniff")
          .header("content-security-policy", "default-src 'none'")
          .send(avatar.data);
      });
    }),
  );

  app.settingsSections.push({
    id: "avatar",
    page: "personal",
    order: 10,
    render: async ({ principal, csrfToken, flash, translator: { t } }) => {
      const extension = await avatars.extensionOf(principal.user.uid);
      return html`<h2>${t("pages:avatar.heading")}</h2>
${flash ?? ""}
${
  extension === undefined
    ? html`<p class="muted" id="avatar-none">${t("pages:avatar.none")}</p>`
    : html`<p><img id="avatar-image" alt="${t("pages:avatar.alt")}" width="96" height="96" src="/remote.php/dav/avatars/${principal.user.uid}/96.${extension}"></p>`
}
<form method="post" action="${AVATAR_UPLOAD_PATH}" enctype="multipart/form-data" id="avatar-form">
<input type="hidden" name="requesttoken" value="${csrfToken}">
<label for="avatar-file">${t("pages:avatar.file")}</label>
<p class="muted" id="avatar-file-hint">${t("pages:avatar.hint", { size: MAX_AVATAR_BYTES / 1024 })}</p>
<input type="file" id="avatar-file" name="avatar" accept="image/png,image/jpeg" aria-describedby="avatar-file-hint" required>
<div class="actions"><button type="submit">${t("pages:avatar.upload")}</button></div>
</form>`;
    },
  });

  await app.register(
    guarded(SESSION_FORM, (forms) => {
      // The upload form is multipart (multipart.ts), read only once the session is known (guarded).
      forms.addContentTypeParser(
        "multipart/form-data",
        { parseAs: "buffer", bodyLimit: MAX_AVATAR_BYTES + 64 * 1024 },
        async (request: FastifyRequest, body: Buffer) => {
          const form = await parseMultipart(request, body, MAX_AVATAR_FORM_PARTS);
          const file = form.get("avatar");
          const token = form.get("requesttoken");
          return {
            requesttoken: typeof token === "string" ? token : undefined,
            avatar: file !== null && typeof file !== "string" ? Buffer.from(await file.arrayBuffer()) : undefined,
          };
        },
      );

      // An image refused (too large, not PNG or JPEG) is shown in the section by account-errors.ts.
      const accountRefusal = { page: "personal", sectionId: "avatar", elementId: "avatar-error" } as const;
      forms.post(AVATAR_UPLOAD_PATH, { config: { accountRefusal } }, async (request, reply) => {
        const { principal } = request;
        const data = (request.body as { avatar?: Buffer } | undefined)?.avatar;
        await avatars.set(principal.user.uid, data ?? Buffer.alloc(0));
        log.info({ event: "avatar_set", uid: principal.user.uid }, "avatar set");
        const { t } = userTranslator(request, principal);
        const message = html`<p class="notice" id="avatar-saved">${t("pages:avatar.saved")}</p>`;
        return sendSettingsPage(request, reply, principal, "personal", { sectionId: "avatar", message });
      });
    }),
  );
}
