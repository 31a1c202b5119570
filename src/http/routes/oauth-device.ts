import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import type { UserCodeLookup } from "../../oauth/device-authorization.js";
import { deviceUserCodeBuckets } from "../../security/domain/throttle-policy.js";
import type { AttemptOutcome } from "../../security/throttle.js";
import { baseUrl } from "../base-url.js";
import { userTranslator } from "../i18n.js";
import { clientEndpoint } from "../oauth-client-endpoint.js";
import { noStore } from "../oauth-errors.js";
import { DEVICE_AUTHORIZATION_PATH } from "../oauth-paths.js";
import { headerUser, sendPage } from "../pages/layout.js";
import type { PageUser } from "../pages/oauth.js";
import {
  deviceConsentPage,
  deviceDecisionPage,
  deviceLoginNote,
  type UserCodeProblem,
  userCodePage,
} from "../pages/oauth-device.js";
import { requirePageUser } from "../plugins/authentication.js";
import { guarded, SESSION_FORM } from "../plugins/route-guards.js";
import { deviceAuthorizationRouteSchema } from "../schemas/oauth.js";
import { throttledAttempt } from "../throttling.js";
/** RFC 8628 §3.3: the verification page (`verification_uri`). */
export const DEVICE_VERIFICATION_PATH = "/index.php/apps/oauth2/device";

function pageUser(principal: Principal): PageUser {
  return { uid: principal.user.uid, ...headerUser(principal) };
}

function bodyField(request: FastifyRequest, name: string): string | undefined {
  const value = (request.body as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

/** What a submitted user code led to: the page to show. */
type Submission =
  | { kind: "problem"; problem: UserCodeProblem }
  | { kind: "confirm"; found: Extract<UserCodeLookup, { kind: "pending" }> }
  | { kind: "decided"; clientName: string; approved: boolean };

/** The login page returns to the verification page (RFC 8628 §3.3), with or without a prefilled code. */
function returnsToVerification(redirectUrl: string): boolean {
  return redirectUrl === DEVICE_VERIFICATION_PATH || redirectUrl.startsWith(`${DEVICE_VERIFICATION_PATH}?`);
}

/** RFC 8628 §3.2: the device code, the user code and where the user enters it. */
async function startDeviceAuthorization(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const outcome = await clientEndpoint(request, reply, { run: (r) => app.services.oauth.devices.start(r) });
  if (!outcome) return reply;
  const started = outcome.result;
  const verificationUri = `${baseUrl(request)}${DEVICE_VERIFICATION_PATH}`;
  return noStore(reply).send({
    device_code: started.deviceCode,
    user_code: started.userCode,
    verification_uri: verificationUri,
    verification_uri_complete: `${verificationUri}?${new URLSearchParams({ user_code: started.userCode })}`,
    expires_in: started.expiresIn,
    interval: started.interval,
  });
}

/** The form, prefilled from `verification_uri_complete`; nobody logged in: the login page, and back. */
async function userCodeForm(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const principal = await requirePageUser(request, reply, request.url);
  if (!principal) return undefined;
  const prefill = (request.query as Record<string, unknown>).user_code;
  return sendPage(
    reply,
    userCodePage(userTranslator(request, principal), {
      user: pageUser(principal),
      action: DEVICE_VERIFICATION_PATH,
      userCode: typeof prefill === "string" ? prefill : "",
    }),
  );
}

/** What the user code names, and the user's Approve or Deny applied to it once confirmed. */
async function decideUserCode(
  app: FastifyInstance,
  request: FastifyRequest,
  principal: Principal,
  userCode: string,
  decision: string | undefined,
): Promise<Submission> {
  const { oauth } = app.services;
  const uid = principal.user.uid;
  const found = await oauth.devices.lookup(userCode);
  if (found.kind !== "pending") return { kind: "problem", problem: found.kind };
  // The client's allowed groups (docs/oauth2.md): the device is told access_denied (RFC 8628 §3.5).
  if (!(await oauth.admits(found.client, uid))) {
    await oauth.devices.deny(userCode, uid);
    request.log.warn(
      { event: "oauth2_authorize_refused_by_group", uid, client: found.client.clientId },
      "device authorization refused: the client's allowed groups do not admit the user",
    );
    return { kind: "problem", problem: "notAvailable" };
  }
  if (decision !== "approve" && decision !== "deny") return { kind: "confirm", found };
  const clientName = found.client.name;
  const authTime = principal.session?.authenticatedAt ?? null;
  const done =
    decision === "approve" ? await oauth.devices.approve(userCode, uid, authTime) : await oauth.devices.deny(userCode, uid);
  return done ? { kind: "decided", clientName, approved: decision === "approve" } : { kind: "problem", problem: "unknown" };
}

/**
 * A submitted user code, throttled per address and per user (RFC 8628 §5.1): a code that names no
 * live pending authorization counts as a failure; a known one, or one that cannot be a code at
 * all, only gives the reservation back (a success resets nothing: anyone can start device
 * authorizations to get valid codes of their own). Undefined when the throttle refused it.
 */
async function submit(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
): Promise<Submission | undefined> {
  const userCode = bodyField(request, "user_code") ?? "";
  const decision = bodyField(request, "decision");
  const uid = principal.user.uid;
  const gate = await throttledAttempt(
    request,
    app.services.deviceUserCodeThrottle,
    deviceUserCodeBuckets(request.ip, uid),
    async (): Promise<Submission> => decideUserCode(app, request, principal, userCode, decision),
    (submission): AttemptOutcome =>
      submission.kind === "problem" && submission.problem === "unknown" ? { kind: "failure" } : { kind: "uncounted" },
  );
  if (!gate.refused) return gate.value;
  reply.header("retry-after", String(gate.retryAfterSeconds));
  request.log.warn(
    { event: "oauth2_device_user_code_throttled", uid, ip: request.ip },
    "device user code refused: too many wrong codes",
  );
  return undefined;
}

/** The page a submission leads to: the form again with its problem, the confirmation, or the outcome. */
function sendSubmission(request: FastifyRequest, reply: FastifyReply, submission: Submission): FastifyReply {
  const { principal } = request;
  const translator = userTranslator(request, principal);
  const user = pageUser(principal);
  switch (submission.kind) {
    case "problem":
      return sendPage(
        reply,
        userCodePage(translator, {
          user,
          action: DEVICE_VERIFICATION_PATH,
          userCode: bodyField(request, "user_code") ?? "",
          problem: submission.problem,
        }),
        submission.problem === "throttled" ? 429 : submission.problem === "notAvailable" ? 403 : 400,
      );
    case "confirm":
      return sendPage(
        reply,
        deviceConsentPage(translator, {
          user,
          action: DEVICE_VERIFICATION_PATH,
          clientName: submission.found.client.name,
          userCode: submission.found.userCode,
          scope: submission.found.record.scope,
        }),
      );
    case "decided":
      return sendPage(reply, deviceDecisionPage(translator, { user, ...submission }));
  }
}

/**
 * The device authorization endpoint (RFC 8628 §3.1–§3.2) and the verification page (§3.3). The
 * token endpoint's side is the device code grant (src/oauth/grants/device-code.ts).
 */
export async function oauthDeviceRoutes(app: FastifyInstance): Promise<void> {
  // The login page says why the visitor is asked to log in, when it returns to the verification page.
  app.loginNoteProviders.push(async (redirectUrl, translator) =>
    returnsToVerification(redirectUrl) ? deviceLoginNote(translator) : undefined,
  );

  // A client endpoint like the token endpoint: the same throttle, client authentication and errors.
  app.post(
    DEVICE_AUTHORIZATION_PATH,
    { schema: deviceAuthorizationRouteSchema, attachValidation: true },
    async (request, reply) => startDeviceAuthorization(app, request, reply),
  );

  app.get(DEVICE_VERIFICATION_PATH, userCodeForm);

  // The form's submission, and the confirmation's Approve or Deny: the session and its requesttoken.
  await app.register(
    guarded(SESSION_FORM, (forms) => {
      forms.post(DEVICE_VERIFICATION_PATH, async (request, reply) => {
        const submission = (await submit(app, request, reply, request.principal)) ?? { kind: "problem", problem: "throttled" };
        return sendSubmission(request, reply, submission);
      });
    }),
  );
}
