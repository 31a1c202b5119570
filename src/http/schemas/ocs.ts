import { Type } from "typebox";
import { AUTHENTICATION_RESPONSES, MAINTENANCE_RESPONSE, OcsFormat, ocsResponse, USER_SECURITY } from "./common.js";

/**
 * The OCS endpoints clients call after login (capabilities, user) and `status.php`: what each
 * answers. OCS defaults to XML unless `format=json` or an Accept header asks for JSON; v1 reports
 * success as statuscode 100 (http/ocs.ts).
 */

const TAGS = ["OCS"];

export const ServerStatus = Type.Object(
  {
    installed: Type.Literal(true),
    maintenance: Type.Boolean(),
    needsDbUpgrade: Type.Boolean(),
    version: Type.String(),
    versionstring: Type.String(),
    edition: Type.String(),
    productname: Type.String(),
    product: Type.String(),
    configValid: Type.Boolean({
      description:
        "Keystream: false while config.json is invalid (the server keeps its last good settings; `./occ status` and the log say why).",
    }),
  },
  { additionalProperties: false, title: "ServerStatus" },
);

export const statusRouteSchema = {
  tags: ["Server"],
  summary: "ownCloud status.php",
  description: "Public; answered in maintenance mode too (then `maintenance: true`).",
  response: {
    200: {
      ...ServerStatus,
      description: "ownCloud's status document.",
      headers: { "cache-control": Type.Literal("no-store"), "access-control-allow-origin": Type.Literal("*") },
    },
  },
};

const Capabilities = Type.Object(
  {
    version: Type.Object(
      {
        major: Type.Integer(),
        minor: Type.Integer(),
        micro: Type.Integer(),
        string: Type.String(),
        edition: Type.String(),
        product: Type.String(),
      },
      { additionalProperties: false },
    ),
    capabilities: Type.Object(
      {
        core: Type.Object(
          { pollinterval: Type.Integer(), "webdav-root": Type.String(), status: ServerStatus },
          { additionalProperties: false },
        ),
        files_sharing: Type.Object(
          {
            api_enabled: Type.Boolean(),
            user: Type.Object({ profile_picture: Type.Boolean() }, { additionalProperties: false }),
          },
          { additionalProperties: false },
        ),
        activity: Type.Object({ apiv2: Type.Array(Type.String()) }, { additionalProperties: false }),
        notifications: Type.Object(
          { "ocs-endpoints": Type.Array(Type.String()), "admin-notifications": Type.Array(Type.String()) },
          { additionalProperties: false, description: "nextcloud/notifications: the endpoints served." },
        ),
        notify_push: Type.Object(
          {
            type: Type.Array(Type.String()),
            endpoints: Type.Object({ websocket: Type.String(), pre_auth: Type.String() }, { additionalProperties: false }),
          },
          { additionalProperties: false, description: "nextcloud/notify_push: pushed kinds and where to connect." },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const capabilitiesRouteSchema = {
  tags: TAGS,
  summary: "Server capabilities (public)",
  querystring: Type.Object({ format: Type.Optional(OcsFormat) }),
  response: {
    200: ocsResponse("The version and capabilities; `Cache-Control: no-store`.", Capabilities, {
      "cache-control": Type.Literal("no-store"),
    }),
    ...MAINTENANCE_RESPONSE,
  },
};

const OcsUser = Type.Object(
  {
    id: Type.String(),
    "display-name": Type.String(),
    displayname: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    enabled: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const userRouteSchema = {
  tags: TAGS,
  summary: "The authenticated user",
  security: USER_SECURITY,
  querystring: Type.Object({ format: Type.Optional(OcsFormat) }),
  response: {
    200: ocsResponse("Who the credentials belong to.", OcsUser),
    ...AUTHENTICATION_RESPONSES,
    ...MAINTENANCE_RESPONSE,
  },
};

export const appPasswordDeleteRouteSchema = {
  tags: TAGS,
  summary: "Delete the app password the request is made with",
  description:
    "Nextcloud's `DELETE /ocs/v2.php/core/apppassword`: a client signing itself out (the Nextcloud desktop client when its account is removed) revokes its own app password. Other credentials get 403.",
  security: USER_SECURITY,
  querystring: Type.Object({ format: Type.Optional(OcsFormat) }),
  response: {
    200: ocsResponse("The app password is revoked.", Type.Array(Type.Any(), { maxItems: 0 })),
    403: ocsResponse("The request was not made with an app password.", Type.Array(Type.Any(), { maxItems: 0 })),
    ...AUTHENTICATION_RESPONSES,
    ...MAINTENANCE_RESPONSE,
  },
};
