import assert from "node:assert/strict";
import type { Contract } from "./harness.js";

const png = (text: string) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from(text)]);

/** accounts/ports.ts AvatarStore, case by case. */
export const avatarStoreContract: Contract = {
  "put replaces the avatar; get reads its bytes, contentTypeOf only its type; none is undefined": async (s) => {
    const uid = await s.user();
    assert.equal(await s.avatars.get(uid), undefined);
    assert.equal(await s.avatars.contentTypeOf(uid), undefined);
    await s.avatars.put(uid, { contentType: "image/png", data: png("one"), updatedAt: 1 });
    await s.avatars.put(uid, { contentType: "image/jpeg", data: png("two"), updatedAt: 2 });
    const read = await s.avatars.get(uid);
    assert.deepEqual([read?.contentType, read?.data.equals(png("two")), read?.updatedAt], ["image/jpeg", true, 2]);
    assert.equal(await s.avatars.contentTypeOf(uid), "image/jpeg");
  },

  "delete answers whether there was one; a user's deletion deletes the avatar": async (s) => {
    const uid = await s.user();
    await s.avatars.put(uid, { contentType: "image/png", data: png("x"), updatedAt: 1 });
    assert.equal(await s.avatars.delete(uid), true);
    assert.equal(await s.avatars.delete(uid), false);
    const gone = await s.user();
    await s.avatars.put(gone, { contentType: "image/png", data: png("x"), updatedAt: 1 });
    await s.users.delete(gone, 1);
    assert.equal(await s.avatars.contentTypeOf(gone), undefined);
  },
};
