/** UserInfo: GET with a bearer token, against the ceiling and the Fastify floor (fixed JSON bodies). */

import { GOALS } from "../lib/goals.js";
import { runLoad } from "../lib/load.js";
import type { Contender } from "../lib/measure.js";
import type { ThroughputScenario } from "../lib/scenario.js";
import { CONNECTIONS } from "../lib/settings.js";
import { CEILING, FASTIFY_FLOOR, fixedBodyContender, probe, type Target } from "../lib/targets.js";

async function userinfoContender(target: Target, token: string): Promise<Contender> {
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
  title: "userinfo (GET with a bearer token; the ceiling and the Fastify floor answer a fixed JSON body)",
  label: "userinfo req/s",
  reference: CEILING,
  goal: GOALS.userinfo,
  contenders: async ({ bare, fastify, peer, keystreams, accessTokens }) => [
    fixedBodyContender(CEILING, bare),
    fixedBodyContender(FASTIFY_FLOOR, fastify),
    ...(await Promise.all([peer, ...keystreams].map((t) => userinfoContender(t, accessTokens.get(t.name)!)))),
  ],
};
