/** Refresh rotation against oidc-provider: each answer's new refresh token goes back into the pool. */

import { GOALS } from "../lib/goals.js";
import { runLoad } from "../lib/load.js";
import type { Contender } from "../lib/measure.js";
import type { ThroughputScenario } from "../lib/scenario.js";
import { BASIC, CONNECTIONS } from "../lib/settings.js";
import { PEER, type Target } from "../lib/targets.js";

const FORM = "application/x-www-form-urlencoded";

/** Refresh rotation: a pool of refresh tokens; each answer's new refresh token goes back in. */
export async function refreshContender(target: Target): Promise<Contender> {
  const pool = await target.mint("refresh", 2000);
  return {
    name: target.name,
    pid: target.server.child.pid,
    run: (seconds) =>
      runLoad({
        url: `${target.base}${target.tokenPath}`,
        method: "POST",
        headers: { authorization: BASIC, "content-type": FORM },
        body: "grant_type=refresh_token&refresh_token=pool-ran-dry",
        nextBody: () => {
          const token = pool.shift();
          return token === undefined ? null : `grant_type=refresh_token&refresh_token=${token}`;
        },
        onBody: (status, body) => {
          if (status !== 200) return;
          const next = (JSON.parse(body) as { refresh_token?: string }).refresh_token;
          if (next) pool.push(next);
        },
        connections: CONNECTIONS,
        durationSeconds: seconds,
      }),
  };
}

export const refreshScenario: ThroughputScenario = {
  key: "refresh",
  title: "refresh rotation (a pool of 2000 refresh tokens, each answer's new one goes back in)",
  label: "refresh rotations/s",
  goal: GOALS.refresh,
  reference: PEER,
  contenders: async ({ peer, keystreams }) => Promise.all([peer, ...keystreams].map(refreshContender)),
};
