import type { FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../../accounts/authentication.js";
import { sha256Hex } from "../../crypto/secrets.js";
import { httpsSite } from "../base-url.js";
import { rawHtml, type SafeHtml } from "../html.js";

const FLASH_COOKIE = "ks_settings_flash";
const FLASH_PATH = "/index.php/settings";
/** A flash not read within this time (the redirect was not followed) is dropped. */
const FLASH_LIFETIME_SECONDS = 300;

export interface SettingsFlash {
  sectionId: string;
  message: SafeHtml;
}

interface SealedFlash {
  /** The session it was made for: another browser's (or a later session's) cookie shows nothing. */
  session: string;
  expiresAt: number;
  sectionId: string;
  html: string;
}

/** The client-secret key file seals this too, as it seals Login Flow v2's pending app passwords. */
function sealerOf(request: FastifyRequest) {
  return request.server.services.sealer;
}

function sessionBinding(principal: Principal): string {
  return sha256Hex(`settings-flash:${principal.session?.token ?? ""}`);
}

/**
 * Post/redirect/get for settings forms that make a secret (an app password, a client secret):
 * the form's answer is a 303 to the settings page, and the one-time message travels in a sealed
 * (AES-256-GCM), HttpOnly cookie that the next page view reads and clears. A reload of that page
 * shows the secret no more and creates nothing; the secret is never stored on the server.
 */
export function redirectWithFlash(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  location: string,
  flash: SettingsFlash,
): FastifyReply {
  const sealed: SealedFlash = {
    session: sessionBinding(principal),
    expiresAt: request.server.services.clock.nowSeconds() + FLASH_LIFETIME_SECONDS,
    sectionId: flash.sectionId,
    html: flash.message.value,
  };
  reply.setCookie(FLASH_COOKIE, sealerOf(request).encrypt(JSON.stringify(sealed)), {
    path: FLASH_PATH,
    httpOnly: true,
    sameSite: "strict",
    secure: httpsSite(request),
  });
  return reply.redirect(`${location}#${flash.sectionId}`, 303);
}

/** The pending flash of this session, read once (the cookie is cleared); undefined when none. */
export function takeFlash(request: FastifyRequest, reply: FastifyReply, principal: Principal): SettingsFlash | undefined {
  const cookie = request.cookies[FLASH_COOKIE];
  if (!cookie) return undefined;
  reply.clearCookie(FLASH_COOKIE, { path: FLASH_PATH, httpOnly: true, sameSite: "strict", secure: httpsSite(request) });
  let sealed: SealedFlash;
  try {
    sealed = JSON.parse(sealerOf(request).decrypt(cookie)) as SealedFlash;
  } catch {
    return undefined;
  }
  if (sealed.session !== sessionBinding(principal)) return undefined;
  if (sealed.expiresAt <= request.server.services.clock.nowSeconds()) return undefined;
  // Authenticated by the seal: only this server wrote this markup (escaped when it was made).
  return { sectionId: sealed.sectionId, message: rawHtml(sealed.html) };
}
