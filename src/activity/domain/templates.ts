/**
 * Subject templates: the parameters each `{name}` placeholder is bound to (subjectparams
 * positions) and the icon; the texts, in every language, are the `activity` catalogue's
 * (src/i18n/catalogues/<language>/activity.ts, keyed `<app>.<subject>`). files and files_sharing
 * from docs/upstream/nextcloud-activity.md §8.1/§8.2 (parameter order as upstream emits them);
 * oauth2 is Keystream's own (security events of the authorization service).
 */
export interface SubjectTemplate {
  params: Readonly<Record<string, number>>;
  /** Icon name below /index.php/apps/activity/img/ (without .svg). */
  icon: string;
}

const t = (params: Record<string, number>, icon: string): SubjectTemplate => ({ params, icon });

const F = { file: 0 };
const FU = { file: 0, user: 1 };
const FA = { file: 0, actor: 1 };
const FAU = { file: 0, actor: 1, user: 2 };
const FG = { file: 0, group: 1 };
const FAG = { file: 0, actor: 1, group: 2 };
const NO = { newfile: 0, oldfile: 1 };
const NUO = { newfile: 0, user: 1, oldfile: 2 };

export const SUBJECT_TEMPLATES: Readonly<Record<string, Readonly<Record<string, SubjectTemplate>>>> = {
  files: {
    created_self: t(F, "add-color"),
    created_by: t(FU, "add-color"),
    created_public: t(F, "add-color"),
    changed_self: t(F, "change"),
    changed_by: t(FU, "change"),
    deleted_self: t(F, "delete-color"),
    deleted_by: t(FU, "delete-color"),
    restored_self: t(F, "history"),
    restored_by: t(FU, "history"),
    renamed_self: t(NO, "change"),
    renamed_by: t(NUO, "change"),
    moved_self: t(NO, "change"),
    moved_by: t(NUO, "change"),
  },
  files_sharing: {
    shared_user_self: t(FU, "share"),
    unshared_user_self: t(FU, "share"),
    self_unshared: t(F, "share"),
    self_unshared_by: t(FA, "share"),
    reshared_user_by: t(FAU, "share"),
    unshared_user_by: t(FAU, "share"),
    shared_with_by: t(FA, "share"),
    unshared_by: t(FA, "share"),
    expired_user: t(FU, "share"),
    expired: t(F, "share"),
    shared_group_self: t(FG, "share"),
    unshared_group_self: t(FG, "share"),
    reshared_group_by: t(FAG, "share"),
    unshared_group_by: t(FAG, "share"),
    expired_group: t(FG, "share"),
    shared_link_self: t(F, "share"),
    unshared_link_self: t(F, "share"),
    link_expired: t(F, "share"),
    reshared_link_by: t(FA, "share"),
    unshared_link_by: t(FA, "share"),
    link_by_expired: t(FA, "share"),
    public_shared_file_downloaded: t(F, "download"),
    public_shared_folder_downloaded: t(F, "download"),
    remote_share_received: t(FU, "share"),
    remote_share_accepted: t(FU, "share"),
    remote_share_declined: t(FU, "share"),
    remote_share_unshared: t(FU, "share"),
  },
  oauth2: {
    client_authorized: t({ client: 0 }, "security"),
    client_revoked: t({ client: 0 }, "security"),
  },
};

/** The icon of a subject without a template. */
export const DEFAULT_ICON = "activity";

export function findTemplate(app: string, subject: string): SubjectTemplate | undefined {
  const forApp = SUBJECT_TEMPLATES[app];
  return forApp && Object.hasOwn(forApp, subject) ? forApp[subject] : undefined;
}
