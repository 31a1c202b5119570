import type { Clock } from "../clock.js";
import { succeeded } from "../refusal.js";
import { avatarExtensionOf, avatarType } from "./domain/avatar-kinds.js";
import { type AccountResult, accountRefusal } from "./errors.js";
import type { AvatarStore } from "./ports.js";

/** The largest avatar accepted (bytes). */
export const MAX_AVATAR_BYTES = 512 * 1024;

export interface Avatar {
  contentType: string;
  extension: string;
  data: Buffer;
  updatedAt: number;
}

/** The absolute URL of a user's avatar (userinfo and ID token `picture`): one form everywhere. */
export function avatarUrlFor(baseUrl: string, uid: string, extension: string): string {
  return `${baseUrl}/remote.php/dav/avatars/${encodeURIComponent(uid)}/96.${extension}`;
}

/** User avatars (the userinfo `picture`), set with `./occ user:set-avatar` or on the personal page. */
export class Avatars {
  constructor(
    private readonly store: AvatarStore,
    private readonly clock: Clock,
  ) {}

  async set(uid: string, data: Buffer): Promise<AccountResult<Avatar>> {
    if (data.length === 0 || data.length > MAX_AVATAR_BYTES) {
      return accountRefusal("invalid_avatar", "avatarTooLarge", { kib: MAX_AVATAR_BYTES / 1024 });
    }
    const kind = avatarType(data);
    if (!kind) return accountRefusal("invalid_avatar", "avatarNotImage");
    const updatedAt = this.clock.nowSeconds();
    await this.store.put(uid, { contentType: kind.type, data, updatedAt });
    return succeeded({ contentType: kind.type, extension: kind.extension, data, updatedAt });
  }

  async get(uid: string): Promise<Avatar | undefined> {
    const stored = await this.store.get(uid);
    if (!stored) return undefined;
    const { contentType, data, updatedAt } = stored;
    return { contentType, extension: avatarType(data)?.extension ?? "png", data, updatedAt };
  }

  /** The file extension of the user's avatar, or undefined when the user has none (no image read). */
  async extensionOf(uid: string): Promise<string | undefined> {
    const contentType = await this.store.contentTypeOf(uid);
    return contentType === undefined ? undefined : avatarExtensionOf(contentType);
  }

  remove(uid: string): Promise<boolean> {
    return this.store.delete(uid);
  }
}
