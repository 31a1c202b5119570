import type { FastifyInstance, FastifyRequest } from "fastify";
import { MAX_AVATAR_BYTES } from "../../../accounts/avatars.js";
import { sendAccountRefusal } from "../../account-errors.js";
import { userTranslator } from "../../i18n.js";
import { parseMultipart } from "../../multipart.js";
import { guarded, SESSION_FORM } from "../../plugins/route-guards.js";
import { answerInSection } from "../page.js";
import { avatarSection } from "../views/avatar.js";

const AVATAR_UPLOAD_PATH = "/index.php/settings/personal/avatar";
/** The upload form's parts: its CSRF token and the file, with room for a field a browser adds. */
const MAX_AVATAR_FORM_PARTS = 4;

/** The personal page's avatar section and its upload form (the image itself: routes/avatars.ts). */
export async function avatarSettingsRoutes(app: FastifyInstance): Promise<void> {
  const { avatars, log } = app.services;

  app.settingsSections.push({
    id: "avatar",
    page: "personal",
    order: 10,
    render: async ({ principal, csrfToken, flash, translator }) => {
      const extension = await avatars.extensionOf(principal.user.uid);
      const uid = principal.user.uid;
      return avatarSection(translator, {
        uid,
        extension,
        csrfToken,
        flash,
        uploadPath: AVATAR_UPLOAD_PATH,
        maxBytes: MAX_AVATAR_BYTES,
      });
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

      // An image refused (too large, not PNG or JPEG) is shown in the section (account-errors.ts).
      const accountRefusal = { page: "personal", sectionId: "avatar", elementId: "avatar-error" } as const;
      forms.post(AVATAR_UPLOAD_PATH, { config: { accountRefusal } }, async (request, reply) => {
        const { principal } = request;
        const data = (request.body as { avatar?: Buffer } | undefined)?.avatar;
        const set = await avatars.set(principal.user.uid, data ?? Buffer.alloc(0));
        if (!set.ok) return sendAccountRefusal(request, reply, set);
        log.info({ event: "avatar_set", uid: principal.user.uid }, "avatar set");
        const { t } = userTranslator(request, principal);
        return answerInSection(request, reply, principal, {
          page: "personal",
          sectionId: "avatar",
          ok: true,
          text: t("pages:avatar.saved"),
          id: "avatar-saved",
        });
      });
    }),
  );
}
