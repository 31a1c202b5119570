import { type TSchema, Type } from "typebox";
import { ErrorBody, errorResponse, MAINTENANCE_RESPONSE } from "./common.js";

/**
 * Nextcloud's Login Flow v2 (docs/upstream/desktop-clients.md, Nextcloud client §2): the two JSON
 * endpoints a client calls without credentials. The browser half (`…/login/v2/flow/{token}`) is HTML
 * pages, outside this document.
 */

const TAGS = ["Login Flow v2"];

const NO_STORE = { "cache-control": Type.Literal("no-store") };

const THROTTLED = {
  429: {
    ...ErrorBody,
    description: "Too many flows started, or too many polls of unknown tokens, from this address (`too_many_requests`).",
    headers: { "retry-after": Type.String({ description: "Seconds" }) },
  },
};

export const LoginFlowStart = Type.Object(
  {
    poll: Type.Object(
      {
        token: Type.String({ description: "The poll token: 128 characters, to send to `endpoint`." }),
        endpoint: Type.String({ format: "uri", description: "`…/index.php/login/v2/poll`, absolute (`overwrite.cli.url`)." }),
      },
      { additionalProperties: false },
    ),
    login: Type.String({ format: "uri", description: "The page to open in a browser: log in, then grant or cancel." }),
  },
  { additionalProperties: false, title: "LoginFlowStart" },
);

export const loginFlowStartRouteSchema = {
  tags: TAGS,
  summary: "Start a Login Flow v2",
  description:
    "No credentials. The request's User-Agent names the application on the grant page and the app password it creates. A flow lives 20 minutes.",
  security: [{}],
  response: {
    200: { ...LoginFlowStart, description: "The flow's tokens and URLs.", headers: NO_STORE },
    ...THROTTLED,
    ...MAINTENANCE_RESPONSE,
  },
};

/** `token` as a form field or in a JSON object; anything else in the body is ignored. */
const PollParameters = {
  type: ["object", "null"],
  properties: { token: Type.String({ maxLength: 1024, description: "The poll token from the start." }) },
  description: "Form parameters (a JSON object is read the same way).",
} as unknown as TSchema;

export const LoginFlowCredentials = Type.Object(
  {
    server: Type.String({ format: "uri", description: "The base URL the client should use from now on." }),
    loginName: Type.String({ description: "The user name for HTTP Basic." }),
    appPassword: Type.String({ description: "A new app password (personal settings list it under the application's name)." }),
  },
  { additionalProperties: false, title: "LoginFlowCredentials" },
);

export const loginFlowPollRouteSchema = {
  tags: TAGS,
  summary: "Poll a Login Flow v2",
  description:
    "No credentials. 404 until the user grants access; then the credentials, once (the flow is deleted as they are read). 404 after expiry, after Cancel, and for unknown tokens.",
  security: [{}],
  consumes: ["application/x-www-form-urlencoded", "application/json"],
  body: PollParameters,
  response: {
    200: { ...LoginFlowCredentials, description: "Granted: the credentials, this once.", headers: NO_STORE },
    400: errorResponse("A malformed body (`invalid_request`)."),
    404: errorResponse("Not granted (yet), expired, cancelled, already polled, or unknown (`not_found`)."),
    ...THROTTLED,
    ...MAINTENANCE_RESPONSE,
  },
};
