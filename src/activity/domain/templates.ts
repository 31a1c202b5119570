/**
 * English subject templates: `{name}` placeholders bound to subjectparams positions.
 * files and files_sharing from research §8.1/§8.2 (parameter order as upstream emits them);
 * oauth2 is Keystream's own (security events of the authorization service).
 */
export interface SubjectTemplate {
  text: string;
  params: Readonly<Record<string, number>>;
  /** Icon name below /index.php/apps/activity/img/ (without .svg). */
  icon: string;
}

const t = (text: string, params: Record<string, number>, icon: string): SubjectTemplate => ({ text, params, icon });

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
    created_self: t("You created {file}", F, "add-color"),
    created_by: t("{user} created {file}", FU, "add-color"),
    created_public: t("{file} was created in a public folder", F, "add-color"),
    changed_self: t("You changed {file}", F, "change"),
    changed_by: t("{user} changed {file}", FU, "change"),
    deleted_self: t("You deleted {file}", F, "delete-color"),
    deleted_by: t("{user} deleted {file}", FU, "delete-color"),
    restored_self: t("You restored {file}", F, "history"),
    restored_by: t("{user} restored {file}", FU, "history"),
    renamed_self: t("You renamed {oldfile} to {newfile}", NO, "change"),
    renamed_by: t("{user} renamed {oldfile} to {newfile}", NUO, "change"),
    moved_self: t("You moved {oldfile} to {newfile}", NO, "change"),
    moved_by: t("{user} moved {oldfile} to {newfile}", NUO, "change"),
  },
  files_sharing: {
    shared_user_self: t("You shared {file} with {user}", FU, "share"),
    unshared_user_self: t("You removed {user} from {file}", FU, "share"),
    self_unshared: t("You removed yourself from {file}", F, "share"),
    self_unshared_by: t("{actor} removed themselves from {file}", FA, "share"),
    reshared_user_by: t("{actor} shared {file} with {user}", FAU, "share"),
    unshared_user_by: t("{actor} removed {user} from {file}", FAU, "share"),
    shared_with_by: t("{actor} shared {file} with you", FA, "share"),
    unshared_by: t("{actor} removed you from the share named {file}", FA, "share"),
    expired_user: t("Share for file {file} with {user} expired", FU, "share"),
    expired: t("Share for file {file} expired", F, "share"),
    shared_group_self: t("You shared {file} with group {group}", FG, "share"),
    unshared_group_self: t("You removed group {group} from {file}", FG, "share"),
    reshared_group_by: t("{actor} shared {file} with group {group}", FAG, "share"),
    unshared_group_by: t("{actor} removed group {group} from {file}", FAG, "share"),
    expired_group: t("Share for file {file} with group {group} expired", FG, "share"),
    shared_link_self: t("You shared {file} as public link", F, "share"),
    unshared_link_self: t("You removed public link for {file}", F, "share"),
    link_expired: t("Public link expired for {file}", F, "share"),
    reshared_link_by: t("{actor} shared {file} as public link", FA, "share"),
    unshared_link_by: t("{actor} removed public link for {file}", FA, "share"),
    link_by_expired: t("Public link of {actor} for {file} expired", FA, "share"),
    public_shared_file_downloaded: t("{file} downloaded via public link", F, "download"),
    public_shared_folder_downloaded: t("{file} downloaded via public link", F, "download"),
    remote_share_received: t("You received a new remote share {file} from {user}", FU, "share"),
    remote_share_accepted: t("{user} accepted the remote share of {file}", FU, "share"),
    remote_share_declined: t("{user} declined the remote share of {file}", FU, "share"),
    remote_share_unshared: t("{user} unshared {file} from you", FU, "share"),
  },
  oauth2: {
    client_authorized: t("You granted {client} access to your account", { client: 0 }, "security"),
    client_revoked: t("The access of {client} to your account was revoked", { client: 0 }, "security"),
  },
};

export const DEFAULT_ICON = "activity";

export function findTemplate(app: string, subject: string): SubjectTemplate | undefined {
  const forApp = SUBJECT_TEMPLATES[app];
  return forApp && Object.hasOwn(forApp, subject) ? forApp[subject] : undefined;
}
