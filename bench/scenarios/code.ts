/** Code → token exchange (client_secret_basic), one pre-minted code per request, against oidc-provider. */

import { GOALS } from "../lib/goals.js";
import { runLoad } from "../lib/load.js";
import type { Contender } from "../lib/measure.js";
import type { ThroughputScenario } from "../lib/scenario.js";
import { BASIC, CLIENT, CONNECTIONS, log } from "../lib/settings.js";
import { PEER, type Target } from "../lib/targets.js";

const FORM = "application/x-www-form-urlencoded";

/** Code → token: a pool minted before each run, sized from the rate seen so far (every code used once). */
export function codeContender(target: Target): Contender {
  // Generous: a warm-up (cold JIT) underestimates the rate, and a pool that runs dry spoils the run.
  let rate = 4000;
  let codes: string[] = [];
  return {
    name: target.name,
    pid: target.server.child.pid,
    async prepare(seconds) {
      codes = await target.mint("code", Math.ceil(rate * seconds * 2.5) + 1000);
    },
    async run(seconds) {
      let next = 0;
      const redirect = encodeURIComponent(CLIENT.redirectUri);
      const result = await runLoad({
        url: `${target.base}${target.tokenPath}`,
        method: "POST",
        headers: { authorization: BASIC, "content-type": FORM },
        body: "grant_type=authorization_code&code=pool-ran-dry",
        nextBody: () =>
          next < codes.length ? `grant_type=authorization_code&code=${codes[next++]}&redirect_uri=${redirect}` : null,
        connections: CONNECTIONS,
        durationSeconds: seconds,
      });
      rate = Math.max(rate, result.okPerSecond);
      if (next >= codes.length) log(`  warning: ${target.name} used up its ${codes.length} codes`);
      return result;
    },
  };
}

export const codeScenario: ThroughputScenario = {
  key: "code",
  title: "code → token exchange (client_secret_basic, one pre-minted code per request)",
  label: "code exchanges/s",
  reference: PEER,
  goal: GOALS.code,
  contenders: async ({ peer, keystreams }) => [peer, ...keystreams].map(codeContender),
};
