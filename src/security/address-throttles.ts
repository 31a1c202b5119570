import { isIP } from "node:net";
import { type BucketState, clientAddressBucket, countedAddressOf, type ThrottleBucket } from "./domain/throttle-policy.js";
import type { Throttle } from "./throttle.js";

/** One throttle's view of an address: the policy's namespace, the bucket's key and its state. */
export interface AddressBucketState extends BucketState {
  namespace: string;
  /** What the address is counted as in the bucket's key (the address, or the group it falls in). */
  countedAs: string;
}

/**
 * An administrator's view of one client address across every throttle that counts addresses
 * (login and Basic, the token endpoints, Login Flow v2 starts and polls), and the way to lift it:
 * Nextcloud's `occ security:bruteforce:attempts` and `security:bruteforce:reset`
 * (nextcloud/server `core/Command/Security/BruteforceAttempts.php`, `BruteforceResetAttempts.php`).
 * The per-user login buckets are not an address's and stay as they are.
 */
export class AddressThrottles {
  constructor(private readonly throttles: readonly Throttle[]) {}

  /** Each throttle's state for `ip` (only `namespace`'s when given). Throws on text that is not an IP address. */
  async states(ip: string, namespace?: string): Promise<AddressBucketState[]> {
    return Promise.all(
      this.chosen(ip, namespace).map(async ({ throttle, bucket }) => describe(throttle, bucket, await throttle.state(bucket))),
    );
  }

  /** Forgets every throttle's bucket of `ip`; returns what each counted just before. */
  async reset(ip: string): Promise<AddressBucketState[]> {
    const states: AddressBucketState[] = [];
    for (const { throttle, bucket } of this.chosen(ip)) states.push(describe(throttle, bucket, await throttle.forget(bucket)));
    return states;
  }

  private chosen(ip: string, namespace?: string) {
    if (isIP(ip) === 0) throw new InvalidAddressError(ip);
    return this.throttles
      .filter((throttle) => namespace === undefined || throttle.policy.namespace === namespace)
      .map((throttle) => ({ throttle, bucket: clientAddressBucket(throttle.policy, ip) }));
  }
}

function describe(throttle: Throttle, bucket: ThrottleBucket, state: BucketState): AddressBucketState {
  return { namespace: throttle.policy.namespace, countedAs: countedAddressOf(throttle.policy, bucket), ...state };
}

/** Text that is not an IP address (Nextcloud's message). */
export class InvalidAddressError extends Error {
  constructor(readonly text: string) {
    super(`"${text}" is not a valid IP address`);
  }
}
