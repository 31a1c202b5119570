import type { FastifyInstance } from "fastify";

/**
 * Whether the host setting `oidc.dynamic_registration` lets clients register (RFC 7591): the
 * registration endpoint answers, and discovery advertises it, only then.
 */
export function registrationEnabled(app: FastifyInstance): boolean {
  return app.services.settings.get("oidc.dynamic_registration") !== "off";
}
