import * as authorizationCode from "./authorization-code.js";
import { deviceCodeGrant } from "./device-code.js";
import * as refreshToken from "./refresh-token.js";
import type { Grant } from "./types.js";

/** The token endpoint's grants, by `grant_type`. */
export const GRANTS: ReadonlyMap<string, Grant> = new Map<string, Grant>([
  [authorizationCode.grantType, authorizationCode],
  [refreshToken.grantType, refreshToken],
  [deviceCodeGrant.grantType, deviceCodeGrant],
]);
