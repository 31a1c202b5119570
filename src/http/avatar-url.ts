import type { FastifyRequest } from "fastify";
import { avatarUrlFor } from "../accounts/avatars.js";
import { baseUrl } from "./base-url.js";

/** The avatar's absolute URL, ownCloud's DAV avatar path (docs/upstream/owncloud-oauth2.md A.7). */
export function avatarUrl(request: FastifyRequest, uid: string, extension: string): string {
  return avatarUrlFor(baseUrl(request), uid, extension);
}
