import type { UserDirectory } from "../accounts/users.js";
import { Groups } from "../groups/service.js";
import type { GroupLists } from "../oauth/ports.js";
import { SqlGroupStore } from "../storage/stores/groups/group-store.js";
import type { Foundation, Module } from "./foundation.js";

/** Groups (ownCloud's occ group:*) on SQL storage, and the lists OAuth client administration resolves through them. */
export function wireGroups(
  { storage, clock, audit }: Pick<Foundation, "storage" | "clock" | "audit">,
  users: UserDirectory,
): Module<{ groups: Groups }> & { groupLists: GroupLists } {
  const groups = new Groups(new SqlGroupStore(storage.db, storage.dialect), users, clock, audit);
  return { services: { groups }, jobs: [], groupLists: groupListsOf(groups) };
}

/** Groups as OAuth client administration asks for them: a comma-separated list resolved, or what to say. */
function groupListsOf(groups: Groups): GroupLists {
  return {
    async resolve(text: string) {
      const list = await groups.existingGroupList(text);
      return list.ok ? { gids: list.value } : { problem: list.phrase, message: list.message };
    },
  };
}
