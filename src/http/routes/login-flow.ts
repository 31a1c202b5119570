import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { clientNameOf } from "../../login-flow/flow.js";
import { loginFlowPollBuckets, loginFlowStartBuckets } from "../../security/domain/throttle-policy.js";
import type { AttemptOutcome } from "../../security/throttle.js";
import { baseUrl } from "../base-url.js";
import { passwordConfirmationNeeded } from "../console/password-confirmation.js";
import { requestTranslator, userTranslator } from "../i18n.js";
import { messagePage, sendPage } from "../pages/layout.js";
import {
  loginFlowCancelledPage,
  loginFlowDonePage,
  loginFlowGrantPage,
  loginFlowInvalidPage,
  loginFlowLoginNote,
} from "../pages/login-flow.js";
import type { PageUser } from "../pages/oauth.js";
import { requirePageUser } from "../plugins/authentication.js";
import { formToken, guarded, type RouteGuard, recentPassword, sessionUser } from "../plugins/route-guards.js";
import { loginFlowPollRouteSchema, loginFlowStartRouteSchema } from "../schemas/login-flow.js";
import { throttledAttempt } from "../throttling.js";

export const LOGIN_FLOW_START_PATH = "/index.php/login/v2";
export const LOGIN_FLOW_POLL_PATH = "/index.php/login/v2/poll";
/** The browser's pages: `${LOGIN_FLOW_PAGE_PREFIX}/<login token>` (GET), then `/grant` or `/cancel` (POST). */
export const LOGIN_FLOW_PAGE_PREFIX = "/index.php/login/v2/flow";

const FLOW_PAGE = /^\/index\.php\/login\/v2\/flow\/([A-Za-z0-9]{1,256})$/;

function pageUser(principal: Principal): PageUser {
  return { uid: principal.user.uid, displayName: principal.user.displayName, csrfToken: principal.session?.csrfToken ?? "" };
}

function tooManyRequests(reply: FastifyReply, retryAfterSeconds: number): FastifyReply {
  return reply
    .status(429)
    .header("retry-after", String(retryAfterSeconds))
    .send({ error: "too_many_requests", error_description: "Too many requests from this address; try again later." });
}

/** The flow's page, where the login page sends the browser back to. */
function flowPageOf(request: FastifyRequest): string {
  const { loginToken } = request.params as { loginToken: string };
  return `${LOGIN_FLOW_PAGE_PREFIX}/${encodeURIComponent(loginToken)}`;
}

/** A grant or cancel form whose requesttoken is not the session's: "Request not valid", 403. */
function sendFormExpired(request: FastifyRequest, reply: FastifyReply, principal: Principal): FastifyReply {
  const translator = userTranslator(request, principal);
  const { t } = translator;
  const page = messagePage(translator, t("pages:message.requestNotValid"), t("pages:message.formExpired"), pageUser(principal));
  return sendPage(reply, page, 403);
}

/** The cancel form: the session (back to the flow's page after a login), then its CSRF token. */
const FLOW_FORM: RouteGuard = {
  name: "login flow form",
  identify: sessionUser(flowPageOf),
  checks: [formToken(sendFormExpired)],
};

/**
 * The grant form, which hands the client an app password: the same, then a recent password
 * confirmation, as Nextcloud marks its grant `#[PasswordConfirmationRequired]`
 * (nextcloud/server core/Controller/ClientFlowLoginV2Controller.php `generateAppPassword`).
 */
const FLOW_GRANT_FORM: RouteGuard = {
  name: "login flow grant",
  identify: sessionUser(flowPageOf),
  checks: [formToken(sendFormExpired), recentPassword],
};

/** A new flow for the client (its name from the User-Agent): where it polls, and the browser's page. */
async function startFlow(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { loginFlows, loginFlowStartThrottle } = app.services;
  // Every start counts in its address's bucket: there is no failure to wait for (security/throttle.ts).
  const gate = await throttledAttempt(
    request,
    loginFlowStartThrottle,
    loginFlowStartBuckets(request.ip),
    () => loginFlows.start(clientNameOf(request.headers["user-agent"]), request.ip),
    (): AttemptOutcome => ({ kind: "failure" }),
  );
  if (gate.refused) {
    request.log.warn({ event: "login_flow_throttled", ip: request.ip }, "login flow start refused: too many flows");
    return tooManyRequests(reply, gate.retryAfterSeconds);
  }
  const base = baseUrl(request);
  return reply.header("cache-control", "no-store").send({
    poll: { token: gate.value.pollToken, endpoint: `${base}${LOGIN_FLOW_POLL_PATH}` },
    login: `${base}${LOGIN_FLOW_PAGE_PREFIX}/${gate.value.loginToken}`,
  });
}

/** The client's poll: the app password once the browser granted it, else 404. */
async function pollFlow(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { loginFlows, loginFlowPollThrottle } = app.services;
  const token = (request.body as { token?: unknown } | null | undefined)?.token;
  const pollToken = typeof token === "string" ? token : "";
  // Only a token naming no flow counts (what guessing produces); polling one's own flow never
  // does, whatever its state (docs/decisions.md "Login Flow v2 throttling").
  const gate = await throttledAttempt(
    request,
    loginFlowPollThrottle,
    loginFlowPollBuckets(request.ip),
    async () => (pollToken === "" ? { kind: "unknown" as const } : loginFlows.poll(pollToken)),
    (outcome): AttemptOutcome => (outcome.kind === "unknown" ? { kind: "failure" } : { kind: "uncounted" }),
  );
  if (gate.refused) {
    request.log.warn({ event: "login_flow_poll_throttled", ip: request.ip }, "login flow poll refused: too many unknown tokens");
    return tooManyRequests(reply, gate.retryAfterSeconds);
  }
  const outcome = gate.value;
  if (outcome.kind !== "granted") {
    return reply
      .status(404)
      .send({ error: "not_found", error_description: "No granted login flow for this token (not yet, or not any more)." });
  }
  request.log.info({ event: "login_flow_polled", uid: outcome.loginName, ip: request.ip }, "login flow credentials delivered");
  return reply
    .header("cache-control", "no-store")
    .send({ server: baseUrl(request), loginName: outcome.loginName, appPassword: outcome.appPassword });
}

/** The browser's page of a pending flow: its grant form; nobody logged in: the login page, and back. */
async function flowPage(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const { loginToken } = request.params as { loginToken: string };
  const page = flowPageOf(request);
  const flow = await app.services.loginFlows.pending(loginToken);
  if (!flow) return sendPage(reply, loginFlowInvalidPage(requestTranslator(request)), 404);
  const principal = await requirePageUser(request, reply, page);
  if (!principal) return undefined;
  const translator = userTranslator(request, principal);
  const confirmPassword = await passwordConfirmationNeeded(request, principal);
  return sendPage(
    reply,
    loginFlowGrantPage(translator, {
      flow,
      user: pageUser(principal),
      actionBase: page,
      now: app.services.clock.nowSeconds(),
      confirmPassword,
    }),
  );
}

/** The grant form: the flow gets an app password of the session's user, which the client polls for. */
async function grantFlow(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { loginFlows } = app.services;
  const { loginToken } = request.params as { loginToken: string };
  const user = pageUser(request.principal);
  const translator = userTranslator(request, request.principal);
  const flow = await loginFlows.pending(loginToken);
  const granted = flow !== undefined && (await loginFlows.grant(loginToken, { uid: user.uid, loginName: user.uid }));
  if (!flow || !granted) return sendPage(reply, loginFlowInvalidPage(translator, user), 404);
  request.log.info({ event: "login_flow_granted", uid: user.uid, client: flow.clientName }, "login flow granted");
  return sendPage(reply, loginFlowDonePage(translator, { clientName: flow.clientName, user }));
}

/** The cancel form: the flow ends without credentials. */
async function cancelFlow(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { loginToken } = request.params as { loginToken: string };
  const user = pageUser(request.principal);
  const translator = userTranslator(request, request.principal);
  const cancelled = await app.services.loginFlows.cancel(loginToken);
  if (!cancelled) return sendPage(reply, loginFlowInvalidPage(translator, user), 404);
  request.log.info({ event: "login_flow_cancelled", uid: user.uid }, "login flow cancelled");
  return sendPage(reply, loginFlowCancelledPage(translator, user));
}

/**
 * Nextcloud's Login Flow v2 (nextcloud/server core/Controller/ClientFlowLoginV2Controller.php;
 * docs/upstream/desktop-clients.md, Nextcloud client §2): the start and poll endpoints a client
 * calls without credentials, and the browser's grant pages.
 */
export async function loginFlowRoutes(app: FastifyInstance): Promise<void> {
  const { loginFlows } = app.services;

  // The login page names the application waiting for this login (as the OAuth module does).
  app.loginNoteProviders.push(async (redirectUrl, translator) => {
    const token = FLOW_PAGE.exec(redirectUrl)?.[1];
    const flow = token === undefined ? undefined : await loginFlows.pending(token);
    return flow && loginFlowLoginNote(translator, flow.clientName);
  });

  // The start takes no parameters, and clients differ in what they declare for their empty body (a
  // JSON content type with no body would be a 400): in this route's own context every body is
  // accepted and ignored, as Nextcloud's server does.
  await app.register(async (start) => {
    start.removeAllContentTypeParsers();
    start.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: 64 * 1024 }, (_request, _body, done) =>
      done(null, undefined),
    );
    start.post(LOGIN_FLOW_START_PATH, { schema: loginFlowStartRouteSchema }, async (request, reply) =>
      startFlow(app, request, reply),
    );
  });

  app.post(LOGIN_FLOW_POLL_PATH, { schema: loginFlowPollRouteSchema }, async (request, reply) => pollFlow(app, request, reply));

  app.get(`${LOGIN_FLOW_PAGE_PREFIX}/:loginToken`, async (request, reply) => flowPage(app, request, reply));

  await app.register(
    guarded(FLOW_GRANT_FORM, (forms) => {
      forms.post(`${LOGIN_FLOW_PAGE_PREFIX}/:loginToken/grant`, async (request, reply) => grantFlow(app, request, reply));
    }),
  );

  await app.register(
    guarded(FLOW_FORM, (forms) => {
      forms.post(`${LOGIN_FLOW_PAGE_PREFIX}/:loginToken/cancel`, async (request, reply) => cancelFlow(app, request, reply));
    }),
  );
}
