import { Type } from "typebox";
import {
  AUTHENTICATION_RESPONSES,
  emptyResponse,
  MAINTENANCE_RESPONSE,
  OcsFormat,
  ocsResponse,
  USER_SECURITY,
} from "./common.js";

/**
 * Nextcloud's notifications API v2 (nextcloud/notifications docs/ocs-endpoint-v2.md,
 * lib/Controller/EndpointController.php): what each route answers. OCS defaults to XML unless
 * `format=json` or an Accept header asks for JSON; on `/ocs/v1.php/` the HTTP status is 200 and
 * the envelope's statuscode says what happened (http/ocs.ts).
 */

const TAGS = ["Notifications"];

const NotificationElement = Type.Object(
  {
    notification_id: Type.Integer(),
    app: Type.String({ description: "`keystream`, or `admin_notifications` for an administrator's message." }),
    user: Type.String(),
    datetime: Type.String({ description: "ISO 8601, UTC." }),
    object_type: Type.String(),
    object_id: Type.String(),
    subject: Type.String({ description: "In the reader's language." }),
    message: Type.String(),
    link: Type.String(),
    subjectRich: Type.String({ description: "Always empty: `subject` is complete." }),
    subjectRichParameters: Type.Array(Type.Any(), { maxItems: 0 }),
    messageRich: Type.String({ description: "Always empty: `message` is complete." }),
    messageRichParameters: Type.Array(Type.Any(), { maxItems: 0 }),
    icon: Type.String(),
    shouldNotify: Type.Boolean(),
    actions: Type.Array(Type.Any(), { maxItems: 0 }),
  },
  { additionalProperties: false, title: "NotificationElement" },
);

const EmptyList = Type.Array(Type.Any(), { maxItems: 0 });
const Query = Type.Object({ format: Type.Optional(OcsFormat) });
const IdParams = Type.Object({ id: Type.String({ description: "The notification's id (digits)." }) });

const COMMON = {
  tags: TAGS,
  security: USER_SECURITY,
  querystring: Query,
};

const NO_STORE = { "cache-control": Type.Literal("no-store") };

export const listNotificationsRouteSchema = {
  ...COMMON,
  summary: "The user's newest notifications",
  description: "The 25 newest, newest first, with an ETag; `If-None-Match` with it answers 304 while nothing changed.",
  response: {
    200: ocsResponse("The notifications.", Type.Array(NotificationElement), { ...NO_STORE, etag: Type.String() }),
    304: emptyResponse("If-None-Match names the current list."),
    ...AUTHENTICATION_RESPONSES,
    ...MAINTENANCE_RESPONSE,
  },
};

export const getNotificationRouteSchema = {
  ...COMMON,
  params: IdParams,
  summary: "One notification",
  response: {
    200: ocsResponse("The notification.", NotificationElement, NO_STORE),
    404: ocsResponse("No such notification of the user's (another user's is not found either).", Type.Null()),
    ...AUTHENTICATION_RESPONSES,
    ...MAINTENANCE_RESPONSE,
  },
};

export const deleteNotificationRouteSchema = {
  ...COMMON,
  params: IdParams,
  summary: "Dismiss one notification",
  description:
    "As upstream, 200 also when the user has no such notification (already dismissed elsewhere, or another user's: nothing is deleted); 404 for id 0 or an id that is not a number.",
  response: {
    200: ocsResponse("Dismissed, or not there.", EmptyList),
    404: ocsResponse("Not a notification id.", Type.Null()),
    ...AUTHENTICATION_RESPONSES,
    ...MAINTENANCE_RESPONSE,
  },
};

export const deleteAllNotificationsRouteSchema = {
  ...COMMON,
  summary: "Dismiss all of the user's notifications",
  response: {
    200: ocsResponse("Dismissed.", EmptyList),
    ...AUTHENTICATION_RESPONSES,
    ...MAINTENANCE_RESPONSE,
  },
};
