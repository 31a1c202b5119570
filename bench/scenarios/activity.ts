/** The activity page (bearer, limit 50) of each Keystream node, against the node:http ceiling. */

import { GOALS } from "../lib/goals.js";
import { runLoad } from "../lib/load.js";
import type { Contender } from "../lib/measure.js";
import type { ThroughputScenario } from "../lib/scenario.js";
import { ACTIVITY_ROWS, CONNECTIONS } from "../lib/settings.js";
import { CEILING, fixedBodyContender, probe, type Target } from "../lib/targets.js";

export async function activityContender(target: Target, token: string): Promise<Contender> {
  await probe(`${target.base}${target.activityPath}`, { authorization: `Bearer ${token}` });
  return {
    name: target.name,
    pid: target.server.child.pid,
    run: (seconds) =>
      runLoad({
        url: `${target.base}${target.activityPath}`,
        headers: { authorization: `Bearer ${token}` },
        connections: CONNECTIONS,
        durationSeconds: seconds,
      }),
  };
}

export const activityScenario: ThroughputScenario = {
  key: "activity",
  title: `activity page (bearer, limit 50, ${ACTIVITY_ROWS} activities) against the ceiling`,
  label: "activity page req/s (bearer)",
  goal: GOALS.activity,
  reference: CEILING,
  contenders: async ({ bare, keystreams, accessTokens }) => [
    fixedBodyContender(CEILING, bare),
    ...(await Promise.all(keystreams.map((t) => activityContender(t, accessTokens.get(t.name)!)))),
  ],
};
