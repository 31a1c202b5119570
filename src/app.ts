import cookie from "@fastify/cookie";
import formbody from "@fastify/formbody";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from "fastify";
import { runRequestInAuditContext } from "./audit/context.js";
import { DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from "./config/timeouts.js";
import { AccessLog } from "./http/access-log.js";
import { auditContextOf, runsInAuditContext } from "./http/audit-context.js";
import { acceptableHost, addStrictTransportSecurity, MAX_HOST_LENGTH } from "./http/base-url.js";
import { connectionOptions } from "./http/connections.js";
import { activitySettingsRoutes } from "./http/console/controllers/activity-settings.js";
import { adminAuditRoutes } from "./http/console/controllers/admin-audit.js";
import { adminGroupRoutes } from "./http/console/controllers/admin-groups.js";
import { adminHostSettingsRoutes } from "./http/console/controllers/admin-host-settings.js";
import { adminLockoutRoutes } from "./http/console/controllers/admin-lockouts.js";
import { adminUserActionRoutes } from "./http/console/controllers/admin-user-actions.js";
import { adminUserRoutes } from "./http/console/controllers/admin-users.js";
import { avatarSettingsRoutes } from "./http/console/controllers/avatars.js";
import { notificationSettingsRoutes } from "./http/console/controllers/notification-settings.js";
import { oauthSettingsRoutes } from "./http/console/controllers/oauth-settings.js";
import { passkeySettingsRoutes } from "./http/console/controllers/passkey-settings.js";
import { personalSessionsRoutes } from "./http/console/controllers/personal-sessions.js";
import { personalSettingsRoutes } from "./http/console/controllers/personal-settings.js";
import { secondFactorSettingsRoutes } from "./http/console/controllers/second-factor-settings.js";
import { settingsRoutes } from "./http/console/controllers/settings.js";
import { handleUncaughtError } from "./http/errors.js";
import { requestLogValue } from "./http/log-redaction.js";
import { registerOpenApi, VALIDATION_OPTIONS } from "./http/openapi.js";
import { decorateGuardPrincipal } from "./http/plugins/route-guards.js";
import { activityApiRoutes } from "./http/routes/activity-api.js";
import { activityLegacyRoutes } from "./http/routes/activity-legacy.js";
import { activityPageRoutes } from "./http/routes/activity-page.js";
import { activityPublishRoutes } from "./http/routes/activity-publish.js";
import { assetRoutes } from "./http/routes/assets.js";
import { avatarRoutes } from "./http/routes/avatars.js";
import { forwardAuthRoutes } from "./http/routes/forward-auth.js";
import { healthRoutes, isHealthPath } from "./http/routes/health.js";
import { loginRoutes } from "./http/routes/login.js";
import { loginFlowRoutes } from "./http/routes/login-flow.js";
import { notificationsApiRoutes } from "./http/routes/notifications-api.js";
import { oauthApiRoutes } from "./http/routes/oauth-api.js";
import { oauthAuthorizeRoutes } from "./http/routes/oauth-authorize.js";
import { oauthDeviceRoutes } from "./http/routes/oauth-device.js";
import { oauthMetadataRoutes } from "./http/routes/oauth-metadata.js";
import { oauthRegistrationRoutes } from "./http/routes/oauth-registration.js";
import { ocsAppPasswordRoutes } from "./http/routes/ocs-app-password.js";
import { ocsCapabilitiesRoutes } from "./http/routes/ocs-capabilities.js";
import { ocsUserRoutes } from "./http/routes/ocs-user.js";
import { oidcRoutes } from "./http/routes/oidc.js";
import { passkeyLoginRoutes } from "./http/routes/passkey-login.js";
import { pushRoutes } from "./http/routes/push.js";
import { secondFactorLoginRoutes } from "./http/routes/second-factor-login.js";
import { statusRoutes } from "./http/routes/status.js";
import { sendUnavailable } from "./http/unavailable.js";
import { REQUEST_ID_HEADER, requestIdGenerator } from "./observability/logging.js";
import type { Services } from "./services.js";

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
    needsDbUpgrade: boolean;
    /** Waits for throttling delays; tests replace it to observe the delay instead of sleeping. */
    sleep(ms: number): Promise<void>;
  }
}

export interface AppOptions {
  services: Services;
  /** Addresses/CIDRs whose X-Forwarded-* headers are trusted; none by default. */
  trustedProxies?: string[];
  needsDbUpgrade?: boolean;
  sleep?: (ms: number) => Promise<void>;
  /** Connection timeouts (config/timeouts.ts); the defaults when absent. */
  timeouts?: ServerTimeouts;
  /** Sees every route as it is added (the route-guards test lists the state-changing ones). */
  onRoute?: (route: RouteOptions) => void;
}

/** Builds the HTTP application without listening (tests drive it with `inject`). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { services } = options;
  const app = Fastify({
    // Every line naming a request writes its URL redacted (http/log-redaction.ts).
    loggerInstance: services.log.child({}, { serializers: { req: requestLogValue } }) as FastifyBaseLogger,
    // Every answered request is counted by route pattern and status (bounded series), with its time.
    logController: new AccessLog((request, reply) =>
      services.metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime),
    ),
    genReqId: requestIdGenerator(options.trustedProxies ?? []),
    trustProxy: options.trustedProxies && options.trustedProxies.length > 0 ? options.trustedProxies : false,
    bodyLimit: 1024 * 1024,
    // Login and consent forms are small; a huge query string is refused before routing.
    routerOptions: { maxParamLength: 500 },
    ...connectionOptions(options.timeouts ?? DEFAULT_SERVER_TIMEOUTS),
    ...VALIDATION_OPTIONS,
  });
  app.decorate("services", services);
  app.decorate("needsDbUpgrade", options.needsDbUpgrade ?? false);
  app.decorate("sleep", options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))));
  app.decorate("settingsSections", []);
  app.decorate("loginNoteProviders", []);
  decorateGuardPrincipal(app);
  app.setErrorHandler(handleUncaughtError);
  if (options.onRoute) app.addHook("onRoute", options.onRoute);

  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 256 * 1024 });
  await registerOpenApi(app);

  // A callback hook, not an async one: it runs on every request, and an async hook costs a promise
  // and a microtask turn each time.
  app.addHook("onRequest", (request, reply, done) => {
    // On every answer, so that a user's report can be matched to the log (observability/logging.ts).
    reply.header(REQUEST_ID_HEADER, request.id);
    if (!acceptableHost(request.host)) {
      reply.status(400).send({
        error: "invalid_request",
        error_description: `The Host header must be a host name or IP address with an optional port, at most ${MAX_HOST_LENGTH} characters.`,
      });
      return;
    }
    addStrictTransportSecurity(request, reply);
    // Probes answer whatever the settings hold (readiness reports maintenance and a broken config.json).
    if (isHealthPath(request.url)) {
      done();
      return;
    }
    if (services.settings.get("maintenance") && request.url !== "/status.php") {
      sendUnavailable(request, reply, "maintenance");
      return;
    }
    // The rest of the request runs in its audit context: who and from where (http/audit-context.ts),
    // until its connection's answer is done.
    if (!runsInAuditContext(request)) {
      done();
      return;
    }
    const release = runRequestInAuditContext(auditContextOf(request), done);
    reply.raw.once("close", release);
  });

  app.get("/", async (_request, reply) => reply.redirect("/index.php/login", 303));
  await app.register(statusRoutes);
  await app.register(healthRoutes, { services });
  await app.register(assetRoutes);
  await app.register(loginRoutes);
  await app.register(loginFlowRoutes);
  await app.register(secondFactorLoginRoutes);
  await app.register(passkeyLoginRoutes);
  await app.register(settingsRoutes);
  await app.register(personalSettingsRoutes);
  await app.register(secondFactorSettingsRoutes);
  await app.register(passkeySettingsRoutes);
  await app.register(personalSessionsRoutes);
  await app.register(adminUserRoutes);
  await app.register(adminUserActionRoutes);
  await app.register(adminHostSettingsRoutes);
  await app.register(adminLockoutRoutes);
  await app.register(adminAuditRoutes);
  await app.register(adminGroupRoutes);
  await app.register(ocsUserRoutes);
  await app.register(ocsAppPasswordRoutes);
  await app.register(oauthRoutes);
  await app.register(oauthSettingsRoutes);
  await app.register(avatarSettingsRoutes);
  await app.register(activityApiRoutes);
  await app.register(activityPublishRoutes);
  await app.register(activitySettingsRoutes);
  await app.register(activityPageRoutes);
  await app.register(activityLegacyRoutes);
  await app.register(ocsCapabilitiesRoutes);
  await app.register(notificationsApiRoutes);
  await app.register(notificationSettingsRoutes);
  await app.register(pushRoutes);
  await app.register(forwardAuthRoutes);
  return app;
}

/**
 * Everything the OAuth 2.0 service serves (`/index.php/apps/oauth2/...`), its RFC 8414 metadata,
 * the OpenID Connect endpoints (JWKS, logout), plus user avatars: one plugin context holding each
 * route file's own.
 */
async function oauthRoutes(app: FastifyInstance): Promise<void> {
  await app.register(oauthAuthorizeRoutes);
  await app.register(oauthApiRoutes);
  await app.register(oauthDeviceRoutes);
  await app.register(oauthMetadataRoutes);
  await app.register(oauthRegistrationRoutes);
  await app.register(oidcRoutes);
  await app.register(avatarRoutes);
}
