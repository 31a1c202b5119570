import type { Clock } from "../clock.js";
import type { DbOrTx } from "../storage/database.js";
import { PreparedQuery } from "../storage/prepared.js";
import { AccountError } from "./errors.js";

/** The largest avatar accepted (bytes). */
export const MAX_AVATAR_BYTES = 512 * 1024;

const SIGNATURES: Array<{ type: string; extension: string; magic: number[] }> = [
  { type: "image/png", extension: "png", magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: "image/jpeg", extension: "jpeg", magic: [0xff, 0xd8, 0xff] },
];

/** PNG or JPEG, recognised by its first bytes (never by a file name or a claimed type). */
export function avatarType(bytes: Buffer): { type: string; extension: string } | undefined {
  return SIGNATURES.find((s) => s.magic.every((byte, i) => bytes[i] === byte));
}

export interface Avatar {
  contentType: string;
  extension: string;
  data: Buffer;
  updatedAt: number;
}

/** The file extension an avatar stored as `contentType` is served under (png for an unknown type). */
export function avatarExtensionOf(contentType: string): string {
  return SIGNATURES.find((s) => s.type === contentType)?.extension ?? "png";
}

/** The absolute URL of a user's avatar (userinfo and ID token `picture`): one form everywhere. */
export function avatarUrlFor(baseUrl: string, uid: string, extension: string): string {
  return `${baseUrl}/remote.php/dav/avatars/${encodeURIComponent(uid)}/96.${extension}`;
}

/** User avatars (the userinfo `picture`), set with `./occ user:set-avatar` or on the personal page. */
export class Avatars {
  /** Asked on every userinfo request (see PreparedQuery). */
  private readonly contentTypeOf: PreparedQuery<{ uid: string }, { content_type: string }>;

  constructor(
    private readonly db: DbOrTx,
    private readonly clock: Clock,
  ) {
    this.contentTypeOf = new PreparedQuery((slot) =>
      db.selectFrom("user_avatars").select("content_type").where("uid", "=", slot("uid")),
    );
  }

  async set(uid: string, data: Buffer): Promise<Avatar> {
    if (data.length === 0 || data.length > MAX_AVATAR_BYTES) {
      throw new AccountError("invalid_avatar", "avatarTooLarge", { kib: MAX_AVATAR_BYTES / 1024 });
    }
    const kind = avatarType(data);
    if (!kind) throw new AccountError("invalid_avatar", "avatarNotImage");
    const row = { uid, content_type: kind.type, data: data.toString("base64"), updated_at: this.clock.nowSeconds() };
    await this.db
      .insertInto("user_avatars")
      .values(row)
      .onConflict((oc) =>
        oc.column("uid").doUpdateSet({ content_type: row.content_type, data: row.data, updated_at: row.updated_at }),
      )
      .execute();
    return { contentType: kind.type, extension: kind.extension, data, updatedAt: row.updated_at };
  }

  async get(uid: string): Promise<Avatar | undefined> {
    const row = await this.db.selectFrom("user_avatars").selectAll().where("uid", "=", uid).executeTakeFirst();
    if (!row) return undefined;
    const data = Buffer.from(row.data, "base64");
    return { contentType: row.content_type, extension: avatarType(data)?.extension ?? "png", data, updatedAt: row.updated_at };
  }

  /** The file extension of the user's avatar, or undefined when the user has none (no image read). */
  async extensionOf(uid: string): Promise<string | undefined> {
    const row = await this.contentTypeOf.first(this.db, { uid });
    return row ? avatarExtensionOf(row.content_type) : undefined;
  }

  async remove(uid: string): Promise<boolean> {
    const result = await this.db.deleteFrom("user_avatars").where("uid", "=", uid).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
