import type { Job } from "../jobs/scheduler.js";
import { AddressThrottles } from "../security/address-throttles.js";
import { TOKEN_THROTTLE } from "../security/domain/throttle-policy.js";
import { createThrottles, type Throttles, throttleList } from "../security/throttles.js";
import { SqlThrottleStore } from "../storage/stores/security/throttle-store.js";
import type { Foundation, Module } from "./foundation.js";

export interface SecurityServices extends Throttles {
  /** Every throttle's bucket of one client address: shown and lifted by `./occ security:bruteforce:*`. */
  addressThrottles: AddressThrottles;
}

export interface SecurityModule extends Module<SecurityServices> {
  /** The token endpoint's throttle store: its reservation rides with the OAuth service's first read, its settlement with the issue. */
  tokenThrottleStore: SqlThrottleStore;
}

/** The throttles of security/throttles.ts on SQL storage, their purge, and their view by address. */
export function wireSecurity({ db, clock, audit }: Pick<Foundation, "db" | "clock" | "audit">): SecurityModule {
  const tokenThrottleStore = new SqlThrottleStore(db, TOKEN_THROTTLE);
  const throttles = createThrottles(
    (policy) => (policy === TOKEN_THROTTLE ? tokenThrottleStore : new SqlThrottleStore(db, policy)),
    clock,
  );
  const all = throttleList(throttles);
  // Throttle rows whose failures were forgotten and that hold no reservation: the table stays small.
  const purge: Job = {
    name: "security:throttle-purge",
    intervalSeconds: () => 3600,
    run: async () => {
      for (const throttle of all) await throttle.purgeStale();
    },
  };
  return { services: { ...throttles, addressThrottles: new AddressThrottles(all, audit) }, tokenThrottleStore, jobs: [purge] };
}
