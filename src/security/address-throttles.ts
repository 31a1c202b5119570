import { isIP, isIPv6 } from "node:net";
import { type AuditTrail, NO_AUDIT } from "../audit/recorder.js";
import { type Result, refused, succeeded } from "../refusal.js";
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
  constructor(
    private readonly throttles: readonly Throttle[],
    private readonly audit: AuditTrail = NO_AUDIT,
  ) {}

  /**
   * Each throttle's state for `ip` (only `namespace`'s when given); `ip` may also be an IPv6 /64 as
   * `countedAs` writes it. Text that is not an IP address is refused.
   */
  async states(ip: string, namespace?: string): Promise<Result<AddressBucketState[], InvalidAddress>> {
    const chosen = this.chosen(ip, namespace);
    if (!chosen.ok) return chosen;
    return succeeded(
      await Promise.all(
        chosen.value.map(async ({ throttle, bucket }) => describe(throttle, bucket, await throttle.state(bucket))),
      ),
    );
  }

  /** Forgets every throttle's bucket of `ip`; returns what each counted just before. */
  async reset(ip: string): Promise<Result<AddressBucketState[], InvalidAddress>> {
    const chosen = this.chosen(ip);
    if (!chosen.ok) return chosen;
    const states: AddressBucketState[] = [];
    for (const { throttle, bucket } of chosen.value) states.push(describe(throttle, bucket, await throttle.forget(bucket)));
    this.audit.record("throttle.reset", {
      subject: { type: "address", id: states[0]?.countedAs ?? ip },
      detail: { failures: states.reduce((total, state) => total + state.failures, 0) },
    });
    return succeeded(states);
  }

  /**
   * The addresses whose failures still count in some throttle, for the admin page: each throttle's
   * latest `limit`, those locked out first, then by failures. `countedAs` is what reset accepts.
   */
  async failing(limit: number): Promise<Array<AddressBucketState & { lastFailureAt: number }>> {
    const perThrottle = await Promise.all(
      this.throttles.map(async (throttle) =>
        (await throttle.failingAddresses(limit)).map(({ bucket, state, lastFailureAt }) => ({
          ...describe(throttle, bucket, state),
          lastFailureAt,
        })),
      ),
    );
    return perThrottle
      .flat()
      .sort((a, b) => b.lockedSeconds - a.lockedSeconds || b.failures - a.failures || b.lastFailureAt - a.lastFailureAt);
  }

  private chosen(text: string, namespace?: string) {
    // An IPv6 client is counted by its /64 (client-address.ts), written `2001:db8::/64`: that text
    // names the same buckets as any address inside it.
    const ip = text.endsWith("/64") && isIPv6(text.slice(0, -3)) ? text.slice(0, -3) : text;
    if (isIP(ip) === 0) {
      // Nextcloud's message (core/Command/Security/BruteforceAttempts.php).
      return refused(
        "invalid_address",
        { key: "settings:lockouts.notAnAddress", values: { address: text } },
        {
          message: `"${text}" is not a valid IP address`,
        },
      );
    }
    return succeeded(
      this.throttles
        .filter((throttle) => namespace === undefined || throttle.policy.namespace === namespace)
        .map((throttle) => ({ throttle, bucket: clientAddressBucket(throttle.policy, ip) })),
    );
  }
}

function describe(throttle: Throttle, bucket: ThrottleBucket, state: BucketState): AddressBucketState {
  return { namespace: throttle.policy.namespace, countedAs: countedAddressOf(throttle.policy, bucket), ...state };
}

/** The refusal of text that is not an IP address. */
type InvalidAddress = "invalid_address";
