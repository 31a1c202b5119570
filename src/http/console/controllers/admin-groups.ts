import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../../accounts/authentication.js";
import { AccountError } from "../../../accounts/errors.js";
import { GroupError } from "../../../groups/errors.js";
import { html, type SafeHtml } from "../../html.js";
import { userTranslator } from "../../i18n.js";
import { ADMIN_FORM, guarded } from "../../plugins/route-guards.js";
import { formField, sendSettingsPage } from "../page.js";
import { redirectWithFlash } from "../settings-flash.js";
import { SETTINGS_PAGES } from "../settings-sections.js";

const SECTION_ID = "groups";
const GROUPS_PATH = "/index.php/settings/admin/groups";
const CREATE_PATH = `${GROUPS_PATH}/create`;
const DELETE_PATH = `${GROUPS_PATH}/delete`;
const ADD_MEMBER_PATH = `${GROUPS_PATH}/add-member`;
const REMOVE_MEMBER_PATH = `${GROUPS_PATH}/remove-member`;

/**
 * The console's groups area (`/index.php/settings/admin/groups`): every group with its member count,
 * create, delete (confirmed in a disclosure, no script), and each group's members (add by user name,
 * remove). What `./occ group:*` does, through the same Groups service; each form redirects back
 * (post/redirect/get) and the page says what happened at the top of the section.
 */
export async function adminGroupRoutes(app: FastifyInstance): Promise<void> {
  const { groups, log } = app.services;

  app.settingsSections.push({
    id: SECTION_ID,
    page: "groups",
    order: 10,
    render: async ({ csrfToken, flash, formValues = {}, t }) => {
      const all = await groups.list();
      const members = await Promise.all(all.map((group) => groups.members(group.gid)));
      const token = html`<input type="hidden" name="requesttoken" value="${csrfToken}">`;
      const label = { name: t("groups:name"), members: t("groups:members") };
      const rows = all.map((group, index) => {
        const id = `group-${String(index)}`;
        const list = members[index] ?? [];
        const gid = html`<input type="hidden" name="gid" value="${group.gid}">`;
        const memberList =
          list.length === 0
            ? html`<p class="muted">${t("groups:noMembers")}</p>`
            : html`<ul class="plain">${list.map(
                (m) =>
                  html`<li>${m.displayName === m.uid ? m.uid : html`${m.displayName} (${m.uid})`} <form method="post" action="${REMOVE_MEMBER_PATH}">${token}${gid}<input type="hidden" name="uid" value="${m.uid}"><button type="submit" class="small" aria-label="${t("groups:removeNamed", { uid: m.uid, gid: group.gid })}">${t("groups:remove")}</button></form></li>`,
              )}</ul>`;
        const deletion =
          group.gid === "admin"
            ? ""
            : html`<details><summary>${t("groups:delete")}</summary><p>${t("groups:deleteConfirm", { gid: group.gid })}</p>
<form method="post" action="${DELETE_PATH}">${token}${gid}<button type="submit" class="danger small">${t("groups:delete")}</button></form></details>`;
        return html`<tr id="${id}"><td data-label="${label.name}">${group.gid}${
          group.displayName === group.gid ? "" : html`<div class="muted">${group.displayName}</div>`
        }</td><td data-label="${label.members}">${group.memberCount}</td><td class="actions-cell">
<details><summary>${t("groups:manage")}</summary><h3>${t("groups:membersOf", { gid: group.gid })}</h3>${memberList}
<form method="post" action="${ADD_MEMBER_PATH}">${token}${gid}<label for="${id}-uid">${t("groups:memberUid")}</label><input type="text" id="${id}-uid" name="uid" required autocomplete="off"><button type="submit" class="small">${t("groups:addMember")}</button></form></details>
${deletion}</td></tr>`;
      });
      return html`<h2>${t("groups:title")}</h2>
<p class="muted">${t("groups:intro")}</p>
${flash ?? ""}
${
  all.length === 0
    ? html`<p class="muted" id="group-list">${t("groups:none")}</p>`
    : html`<table class="responsive" id="group-list"><thead><tr><th scope="col">${label.name}</th><th scope="col">${label.members}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${rows}
</tbody></table>`
}
<h3>${t("groups:create")}</h3>
<form method="post" action="${CREATE_PATH}" id="group-create">${token}
<label for="group-new-gid">${t("groups:newGid")}</label><input type="text" id="group-new-gid" name="gid" maxlength="64" required value="${formValues.gid ?? ""}">
<label for="group-new-display-name">${t("groups:newDisplayName")}</label><input type="text" id="group-new-display-name" name="display_name" maxlength="255" value="${formValues.display_name ?? ""}">
<div class="actions"><button type="submit">${t("groups:create")}</button></div>
</form>`;
    },
  });

  /** Runs a change: its notice after a redirect, or the refusal (400) on the page itself with what was sent. */
  const change = async (
    request: FastifyRequest,
    reply: FastifyReply,
    run: (principal: Principal) => Promise<{ notice: string; event: object }>,
  ): Promise<FastifyReply> => {
    const { principal } = request;
    const translator = userTranslator(request, principal);
    try {
      const { notice, event } = await run(principal);
      log.info({ ...event, by: principal.user.uid }, "groups changed on the admin console");
      const message = html`<p class="notice" id="groups-notice" role="status">${notice}</p>`;
      return redirectWithFlash(request, reply, principal, SETTINGS_PAGES.groups.path, { sectionId: SECTION_ID, message });
    } catch (error) {
      if (!(error instanceof GroupError) && !(error instanceof AccountError)) throw error;
      const message: SafeHtml = html`<p class="error" id="groups-error" role="alert">${error.translated(translator)}</p>`;
      const formValues = { gid: formField(request, "gid"), display_name: formField(request, "display_name") };
      return sendSettingsPage(request, reply, principal, "groups", { sectionId: SECTION_ID, message, formValues }, 400);
    }
  };

  await app.register(
    guarded(ADMIN_FORM, (forms) => {
      forms.post(CREATE_PATH, (request, reply) =>
        change(request, reply, async () => {
          const group = await groups.create((formField(request, "gid") ?? "").trim(), formField(request, "display_name"));
          const { t } = userTranslator(request, request.principal);
          return { notice: t("groups:created", { gid: group.gid }), event: { event: "group_created", gid: group.gid } };
        }),
      );
      forms.post(DELETE_PATH, (request, reply) =>
        change(request, reply, async () => {
          const gid = formField(request, "gid") ?? "";
          await groups.delete(gid);
          const { t } = userTranslator(request, request.principal);
          return { notice: t("groups:deleted", { gid }), event: { event: "group_deleted", gid } };
        }),
      );
      forms.post(ADD_MEMBER_PATH, (request, reply) =>
        change(request, reply, async () => {
          const gid = formField(request, "gid") ?? "";
          const uid = (formField(request, "uid") ?? "").trim();
          const outcome = await groups.addMember(gid, uid);
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
          const outcome = await groups.removeMember(gid, uid);
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
