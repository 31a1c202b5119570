import type { FastifyInstance, FastifyRequest } from "fastify";
import { sendAccountRefusal } from "../../account-errors.js";
import { userTranslator } from "../../i18n.js";
import { ADMIN_FORM, ADMIN_PAGE, guarded } from "../../plugins/route-guards.js";
import { USERS_FORM_PATH } from "../admin-user-paths.js";
import { formField } from "../page.js";
import { redirectWithFlash } from "../settings-flash.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { sendUserPage } from "../user-page.js";
import { userCreatedNotice, usersSection } from "../views/admin-users.js";

const SECTION_ID = "users";
/** Users per page of the users area. */
export const USERS_PER_PAGE = 50;
/** The longest search text taken from `?q=` (a uid, name or address is at most 255 characters). */
const MAX_SEARCH_LENGTH = 255;

/** The users area's query: `?q=` the search text, `?page=` from 1. */
function listQuery(request: FastifyRequest): { text: string; page: number } {
  const query = request.query as Record<string, unknown>;
  const text = typeof query.q === "string" ? query.q.trim().slice(0, MAX_SEARCH_LENGTH) : "";
  const page = typeof query.page === "string" && /^[1-9]\d{0,5}$/.test(query.page) ? Number(query.page) : 1;
  return { text, page };
}

/**
 * The users area: a search over uid, name and address, one page of users at a time (each linking
 * to the user's own page, console/user-page.ts; its forms: admin-user-actions.ts), and the form that creates a user, through the same
 * UserDirectory calls `./occ user:*` makes.
 */
export async function adminUserRoutes(app: FastifyInstance): Promise<void> {
  const { users, groups, secondFactors, log } = app.services;

  app.settingsSections.push({
    id: SECTION_ID,
    page: "users",
    order: 0,
    render: async ({ request, csrfToken, flash, formValues = {}, translator }) => {
      const { text, page } = listQuery(request);
      const found = await users.search({ text, limit: USERS_PER_PAGE, offset: (page - 1) * USERS_PER_PAGE });
      const uids = found.users.map((u) => u.uid);
      const [memberships, factors] = await Promise.all([groups.groupsOfUsers(uids), secondFactors.enabledByUser(uids)]);
      return usersSection(translator, {
        text,
        maxSearchLength: MAX_SEARCH_LENGTH,
        page,
        pages: Math.max(1, Math.ceil(found.total / USERS_PER_PAGE)),
        users: found.users,
        total: found.total,
        first: (page - 1) * USERS_PER_PAGE + 1,
        memberships,
        factors,
        csrfToken,
        flash,
        formValues,
      });
    },
  });

  await app.register(
    guarded(ADMIN_PAGE, (pages) => {
      pages.get(`${SETTINGS_PAGES.users.path}/:uid`, async (request, reply) =>
        sendUserPage(request, reply, request.principal, (request.params as { uid: string }).uid),
      );
    }),
  );

  await app.register(
    guarded(ADMIN_FORM, (forms) => {
      // A refused new user comes back in the users area with the form as sent (account-errors.ts).
      const accountRefusal = {
        page: "users",
        sectionId: SECTION_ID,
        elementId: "users-error",
        refill: ["uid", "display_name", "email", "is_admin"],
      } as const;
      forms.post(USERS_FORM_PATH, { config: { accountRefusal } }, async (request, reply) => {
        const { principal } = request;
        const created = await users.create({
          uid: (formField(request, "uid") ?? "").trim(),
          password: formField(request, "password") ?? "",
          displayName: (formField(request, "display_name") ?? "").trim() || undefined,
          email: (formField(request, "email") ?? "").trim() || undefined,
          isAdmin: formField(request, "is_admin") !== undefined,
        });
        if (!created.ok) return sendAccountRefusal(request, reply, created);
        const user = created.value;
        log.info({ event: "user_created", uid: user.uid, by: principal.user.uid }, "user created on the admin page");
        const { t } = userTranslator(request, principal);
        return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.users.path, {
          sectionId: SECTION_ID,
          message: userCreatedNotice(t, user.uid),
        });
      });
    }),
  );
}
