/**
 * UserInfo: GET with a bearer token, against the ceiling and the Fastify floor (fixed JSON bodies),
 * and Keystream's own floor: its cheapest answer, `status.php` (no database, no authentication), on
 * the SQLite node as deployed (hooks, headers, metrics, the access-log line). What userinfo costs
 * above that floor is the bearer check and the answer; what the floor costs above Fastify's is
 * Keystream's per-request machinery.
 */

import { GOALS } from "../lib/goals.js";
import { runLoad } from "../lib/load.js";
import type { Contender } from "../lib/measure.js";
import type { ThroughputScenario } from "../lib/scenario.js";
import { CONNECTIONS } from "../lib/settings.js";
import { CEILING, FASTIFY_FLOOR, fixedBodyContender, KEYSTREAM_FLOOR, probe, type Target } from "../lib/targets.js";

export async function userinfoContender(target: Target, token: string): Promise<Contender> {
  await probe(`${target.base}${target.userinfoPath}`, { authorization: `Bearer ${token}` });
  return {
    name: target.name,
    pid: target.server.child.pid,
    run: (seconds) =>
      runLoad({
        url: `${target.base}${target.userinfoPath}`,
        headers: { authorization: `Bearer ${token}` },
        connections: CONNECTIONS,
        durationSeconds: seconds,
      }),
  };
}

export const userinfoScenario: ThroughputScenario = {
  key: "userinfo",
  title:
    "userinfo (GET with a bearer token; the ceiling and the Fastify floor answer a fixed JSON body, Keystream's floor is its status.php)",
  label: "userinfo req/s",
  reference: CEILING,
  goal: GOALS.userinfo,
  contenders: async ({ bare, fastify, peer, keystreams, accessTokens }) => [
    fixedBodyContender(CEILING, bare),
    fixedBodyContender(FASTIFY_FLOOR, fastify),
    ...keystreams.slice(0, 1).map((t) => fixedBodyContender(KEYSTREAM_FLOOR, t.server, "/status.php")),
    ...(await Promise.all([peer, ...keystreams].map((t) => userinfoContender(t, accessTokens.get(t.name)!)))),
  ],
};
