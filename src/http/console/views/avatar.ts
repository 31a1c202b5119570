import type { Translator } from "../../../i18n/index.js";
import { html, type SafeHtml } from "../../html.js";

/** The personal page's avatar: the current image (or a note that there is none) and the upload form. */
export function avatarSection(
  translator: Translator,
  model: {
    uid: string;
    /** The stored image's extension; undefined when the user has none. */
    extension: string | undefined;
    csrfToken: string;
    flash: SafeHtml | undefined;
    uploadPath: string;
    maxBytes: number;
  },
): SafeHtml {
  const { t } = translator;
  return html`<h2>${t("pages:avatar.heading")}</h2>
${model.flash ?? ""}
${
  model.extension === undefined
    ? html`<p class="muted" id="avatar-none">${t("pages:avatar.none")}</p>`
    : html`<p><img id="avatar-image" alt="${t("pages:avatar.alt")}" width="96" height="96" src="/remote.php/dav/avatars/${model.uid}/96.${model.extension}"></p>`
}
<form method="post" action="${model.uploadPath}" enctype="multipart/form-data" id="avatar-form">
<input type="hidden" name="requesttoken" value="${model.csrfToken}">
<label for="avatar-file">${t("pages:avatar.file")}</label>
<p class="muted" id="avatar-file-hint">${t("pages:avatar.hint", { size: model.maxBytes / 1024 })}</p>
<input type="file" id="avatar-file" name="avatar" accept="image/png,image/jpeg" aria-describedby="avatar-file-hint" required>
<div class="actions"><button type="submit">${t("pages:avatar.upload")}</button></div>
</form>`;
}
