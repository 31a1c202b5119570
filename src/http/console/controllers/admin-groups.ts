import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../../accounts/authentication.js";
import type { GroupMember } from "../../../groups/ports.js";
import type { Groups } from "../../../groups/service.js";
import { say } from "../../../i18n/index.js";
import type { Refusal } from "../../../refusal.js";
import { userTranslator } from "../../i18n.js";
import { ADMIN_FORM, guarded } from "../../plugins/route-guards.js";
import { answerInSection, formField } from "../page.js";
import { redirectWithFlash } from "../settings-flash.js";
import { SETTINGS_PAGES } from "../settings-sections.js";
import { ADD_MEMBER_PATH, CREATE_PATH, DELETE_PATH, groupsSection, REMOVE_MEMBER_PATH } from "../views/groups.js";
import { outcomeParagraph } from "../views/messages.js";

const SECTION_ID = "groups";
/**
 * The console's groups area (`/index.php/settings/admin/groups`): every group with its member count,
 * create, delete (confirmed in a disclosure, no script), and each group's members (add by user name,
 * remove). What `./occ group:*` does, through the same Groups service; each form redirects back
 * (post/redirect/get) and the page says what happened at the top of the section.
 */
export async function adminGroupRoutes(app: FastifyInstance): Promise<void> {
  const { groups } = app.services;

  app.settingsSections.push({
    id: SECTION_ID,
    page: "groups",
    order: 10,
    render: async ({ csrfToken, flash, formValues = {}, t }) => {
      const all = await groups.list();
      const members = await Promise.all(all.map((group) => membersOf(groups, group.gid)));
      return groupsSection(t, { groups: all, members, csrfToken, flash, formValues });
    },
  });

  await app.register(
    guarded(ADMIN_FORM, (forms) => {
      forms.post(CREATE_PATH, (request, reply) =>
        change(request, reply, async () => {
          const created = await groups.create((formField(request, "gid") ?? "").trim(), formField(request, "display_name"));
          if (!created.ok) return created;
          const group = created.value;
          const { t } = userTranslator(request, request.principal);
          return { notice: t("groups:created", { gid: group.gid }), event: { event: "group_created", gid: group.gid } };
        }),
      );
      forms.post(DELETE_PATH, (request, reply) =>
        change(request, reply, async () => {
          const gid = formField(request, "gid") ?? "";
          const deleted = await groups.delete(gid);
          if (!deleted.ok) return deleted;
          const { t } = userTranslator(request, request.principal);
          return { notice: t("groups:deleted", { gid }), event: { event: "group_deleted", gid } };
        }),
      );
      forms.post(ADD_MEMBER_PATH, (request, reply) =>
        change(request, reply, async () => {
          const gid = formField(request, "gid") ?? "";
          const uid = (formField(request, "uid") ?? "").trim();
          const added = await groups.addMember(gid, uid);
          if (!added.ok) return added;
          const outcome = added.value;
          const { t } = userTranslator(request, request.principal);
          return {
            notice: outcome === "added" ? t("groups:added", { uid, gid }) : t("groups:alreadyMember", { uid, gid }),
            event: { event: "group_member_added", gid, uid, outcome },
          };
        }),
      );
      forms.post(REMOVE_MEMBER_PATH, (request, reply) =>
        change(request, reply, async () => {
          const gid = formField(request, "gid") ?? "";
          const uid = formField(request, "uid") ?? "";
          const removed = await groups.removeMember(gid, uid);
          if (!removed.ok) return removed;
          const outcome = removed.value;
          const { t } = userTranslator(request, request.principal);
          return {
            notice: outcome === "removed" ? t("groups:removed", { uid, gid }) : t("groups:notMember", { uid, gid }),
            event: { event: "group_member_removed", gid, uid, outcome },
          };
        }),
      );
    }),
  );
}

/** Runs a change: its notice after a redirect, or the refusal (400) on the page itself with what was sent. */
async function change(
  request: FastifyRequest,
  reply: FastifyReply,
  run: (principal: Principal) => Promise<{ notice: string; event: object } | Refusal>,
): Promise<FastifyReply> {
  const { principal } = request;
  const translator = userTranslator(request, principal);
  const done = await run(principal);
  if ("ok" in done) {
    const formValues = { gid: formField(request, "gid"), display_name: formField(request, "display_name") };
    return answerInSection(request, reply, principal, {
      page: "groups",
      sectionId: SECTION_ID,
      ok: false,
      text: say(translator, done.phrase),
      id: "groups-error",
      role: "alert",
      formValues,
    });
  }
  const { notice, event } = done;
  request.server.services.log.info({ ...event, by: principal.user.uid }, "groups changed on the admin console");
  const message = outcomeParagraph(true, notice, "groups-notice", "status");
  return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.groups.path, { sectionId: SECTION_ID, message });
}

/** A listed group's members; a group deleted since the list was read fails the page, as any failed read does. */
async function membersOf(groups: Groups, gid: string): Promise<readonly GroupMember[]> {
  const listed = await groups.members(gid);
  if (!listed.ok) throw new Error(listed.message);
  return listed.value;
}
