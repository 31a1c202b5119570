import type { Clock } from "../clock.js";
import {
  DEVICE_USER_CODE_THROTTLE,
  LOGIN_FLOW_POLL_THROTTLE,
  LOGIN_FLOW_START_THROTTLE,
  LOGIN_THROTTLE,
  REGISTRATION_THROTTLE,
  SECOND_FACTOR_THROTTLE,
  type ThrottlePolicy,
  TOKEN_THROTTLE,
} from "./domain/throttle-policy.js";
import type { ThrottleStore } from "./ports.js";
import { Throttle } from "./throttle.js";

/**
 * Every throttle of the server, by the name the HTTP layer and the CLI read it under
 * (`services.loginThrottle`…), with its policy (domain/throttle-policy.ts says what each counts).
 * In this order AddressThrottles lists them and the purge job purges them.
 */
const THROTTLE_POLICIES = {
  /** The login form and HTTP Basic, per IP and per user. */
  loginThrottle: LOGIN_THROTTLE,
  /** OAuth token, revocation and introspection endpoints, per IP. */
  tokenThrottle: TOKEN_THROTTLE,
  /** Login Flow v2 starts, per IP. */
  loginFlowStartThrottle: LOGIN_FLOW_START_THROTTLE,
  /** Login Flow v2 polls, per IP. */
  loginFlowPollThrottle: LOGIN_FLOW_POLL_THROTTLE,
  /** User codes entered on the device verification page (RFC 8628 §5.1), per IP and per user. */
  deviceUserCodeThrottle: DEVICE_USER_CODE_THROTTLE,
  /** Dynamic client registrations (RFC 7591), per IP. */
  registrationThrottle: REGISTRATION_THROTTLE,
  /** The second-factor challenge, per IP and per user. */
  secondFactorThrottle: SECOND_FACTOR_THROTTLE,
} as const satisfies Record<string, ThrottlePolicy>;

type ThrottleName = keyof typeof THROTTLE_POLICIES;

/** One Throttle per policy of the table, by name. */
export type Throttles = { readonly [name in ThrottleName]: Throttle };

/** Builds every throttle of the table, each on the store `storeFor` gives its policy. */
export function createThrottles(storeFor: (policy: ThrottlePolicy) => ThrottleStore, clock: Clock): Throttles {
  const entries = Object.entries(THROTTLE_POLICIES).map(([name, policy]) => [
    name,
    new Throttle(storeFor(policy), clock, policy),
  ]);
  return Object.fromEntries(entries) as Throttles;
}

/** The throttles in the table's order. */
export function throttleList(throttles: Throttles): Throttle[] {
  return (Object.keys(THROTTLE_POLICIES) as ThrottleName[]).map((name) => throttles[name]);
}
