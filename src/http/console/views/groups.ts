import type { GroupMember, GroupSummary } from "../../../groups/ports.js";
import type { Translator } from "../../../i18n/index.js";
import { html, type SafeHtml } from "../../html.js";
import type { FormValues } from "../settings-sections.js";

/** Where the groups area's forms post. */
export const GROUPS_PATH = "/index.php/settings/admin/groups";
export const CREATE_PATH = `${GROUPS_PATH}/create`;
export const DELETE_PATH = `${GROUPS_PATH}/delete`;
export const ADD_MEMBER_PATH = `${GROUPS_PATH}/add-member`;
export const REMOVE_MEMBER_PATH = `${GROUPS_PATH}/remove-member`;

type T = Translator["t"];

/** The groups area: every group (manage members, delete), then the form that creates one. */
export function groupsSection(
  t: T,
  model: {
    groups: readonly GroupSummary[];
    /** Each group's members, in the order of `groups`. */
    members: readonly (readonly GroupMember[])[];
    csrfToken: string;
    flash: SafeHtml | undefined;
    /** The create form as a refused one was sent. */
    formValues: FormValues;
  },
): SafeHtml {
  const token = html`<input type="hidden" name="requesttoken" value="${model.csrfToken}">`;
  const { formValues } = model;
  const rows = model.groups.map((group, index) =>
    groupRow(t, group, model.members[index] ?? [], `group-${String(index)}`, token),
  );
  return html`<h2>${t("groups:title")}</h2>
<p class="muted">${t("groups:intro")}</p>
${model.flash ?? ""}
${
  model.groups.length === 0
    ? html`<p class="muted" id="group-list">${t("groups:none")}</p>`
    : html`<table class="responsive" id="group-list"><thead><tr><th scope="col">${t("groups:name")}</th><th scope="col">${t("groups:members")}</th><th scope="col">${t("pages:settings.actions")}</th></tr></thead><tbody>
${rows}
</tbody></table>`
}
<h3>${t("groups:create")}</h3>
<form method="post" action="${CREATE_PATH}" id="group-create">${token}
<label for="group-new-gid">${t("groups:newGid")}</label><input type="text" id="group-new-gid" name="gid" maxlength="64" required value="${formValues.gid ?? ""}">
<label for="group-new-display-name">${t("groups:newDisplayName")}</label><input type="text" id="group-new-display-name" name="display_name" maxlength="255" value="${formValues.display_name ?? ""}">
<div class="actions"><button type="submit">${t("groups:create")}</button></div>
</form>`;
}

function groupRow(t: T, group: GroupSummary, list: readonly GroupMember[], id: string, token: SafeHtml): SafeHtml {
  const label = { name: t("groups:name"), members: t("groups:members") };
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
}
