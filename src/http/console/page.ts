import type { FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import type { SafeHtml } from "../html.js";
import { userTranslator } from "../i18n.js";
import { headerUser, sendPage } from "../pages/layout.js";
import { takeFlash } from "./settings-flash.js";
import type { FormValues, SettingsContext, SettingsPageName, SettingsSection } from "./settings-sections.js";
import { outcomeParagraph } from "./views/messages.js";
import { adminPageView, settingsPageView, settingsSection } from "./views/page.js";

declare module "fastify" {
  interface FastifyInstance {
    settingsSections: SettingsSection[];
  }
}

/** The administration console's areas, in the navigation's order. */
export const ADMIN_AREAS = [
  "users",
  "groups",
  "applications",
  "security",
  "settings",
] as const satisfies readonly SettingsPageName[];

/** The text of a form field, when the field is there and is text. */
export function formField(request: FastifyRequest, name: string): string | undefined {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

/** The console's areas that have something to show (a section registered on them). */
function shownAreas(request: FastifyRequest): SettingsPageName[] {
  return ADMIN_AREAS.filter((area) => request.server.settingsSections.some((s) => s.page === area));
}

/**
 * Renders a settings page from its registered sections. `flash` goes to one section, so a form
 * handler can show a one-time secret where the user made it.
 */
export async function sendSettingsPage(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  page: SettingsPageName,
  flash?: { sectionId: string; message: SafeHtml; formValues?: FormValues },
  status = 200,
): Promise<FastifyReply> {
  const csrfToken = principal.session?.csrfToken ?? "";
  const translator = userTranslator(request, principal);
  // A one-time message from a post/redirect/get (settings-flash.ts), or one a handler passes.
  const shown = flash ?? (request.method === "GET" ? takeFlash(request, reply, principal) : undefined);
  const sections = request.server.settingsSections.filter((s) => s.page === page).sort((a, b) => a.order - b.order);
  const rendered = await Promise.all(
    sections.map((section) => {
      const context: SettingsContext = {
        request,
        principal,
        csrfToken,
        translator,
        t: translator.t,
        flash: shown?.sectionId === section.id ? shown.message : undefined,
        formValues: flash?.sectionId === section.id ? flash.formValues : undefined,
      };
      return section.render(context).then((body) => settingsSection(section.id, body));
    }),
  );
  const model = { page, user: headerUser(principal), areas: shownAreas(request), sections: rendered };
  return sendPage(reply, settingsPageView(translator, model), status);
}

/** A page of the administration console that is not an area's list of sections (one user's page). */
export function sendAdminPage(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  area: SettingsPageName,
  content: { heading: string; body: SafeHtml },
  status = 200,
): FastifyReply {
  const translator = userTranslator(request, principal);
  const model = { area, user: headerUser(principal), areas: shownAreas(request), ...content };
  return sendPage(reply, adminPageView(translator, model), status);
}

/** A form's outcome, shown at the top of the form's section of its settings page. */
export interface SectionAnswer {
  page: SettingsPageName;
  sectionId: string;
  /** A notice when true, an error when false. */
  ok: boolean;
  /** The sentence, already in the reader's language. */
  text: string;
  /** The paragraph's id, when the page's tests and scripts look for it. */
  id?: string | undefined;
  /** Read out at once by assistive technology. */
  role?: "alert" | "status";
  /** 200 when ok, 400 when not, unless given. */
  status?: number;
  /** What a refused form was sent with, shown again to correct. */
  formValues?: FormValues | undefined;
}

/** Answers a settings form with its page, the outcome in the form's section. */
export function answerInSection(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  answer: SectionAnswer,
): Promise<FastifyReply> {
  const message = outcomeParagraph(answer.ok, answer.text, answer.id, answer.role);
  const flash = { sectionId: answer.sectionId, message, formValues: answer.formValues };
  return sendSettingsPage(request, reply, principal, answer.page, flash, answer.status ?? (answer.ok ? 200 : 400));
}
