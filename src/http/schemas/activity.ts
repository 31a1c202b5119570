import { Type } from "typebox";
import { MAX_AFFECTED_USERS } from "../../activity/domain/event.js";
import { DEFAULT_LIMIT, MAX_LIMIT } from "../../activity/domain/page.js";
import { MAX_COLLECTION_ITEMS, MAX_PARAMETERS, PARAMETER_TYPES } from "../../activity/domain/parameters.js";
import {
  AUTHENTICATION_RESPONSES,
  ErrorBody,
  emptyResponse,
  MAINTENANCE_RESPONSE,
  OcsFormat,
  ocsResponse,
  SECURITY,
  type SecurityRequirements,
  USER_SECURITY,
} from "./common.js";

/**
 * The activity API v2 (docs/spec/activity-api.md), its events endpoint and the legacy v1 list: what
 * each route validates and answers. The stream's query follows upstream's PHP casts (anything
 * unreadable means the default, never an error), so its schema refuses nothing; the events body is
 * validated by the domain (`activity/domain/event.ts`, shared with `occ activity:publish`), whose
 * messages name the element and field; the schema here documents that same shape (docs/decisions.md).
 */

const TAGS = ["Activity"];

/** A query value as Fastify parses it: a string, or an array when the name is repeated (then ignored). */
function queryValue(description: string) {
  return Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description }));
}

export const StreamQuery = Type.Object({
  since: queryValue("Continue after this activity id (the previous page's X-Activity-Last-Given)."),
  limit: queryValue(`Page size: ${DEFAULT_LIMIT} by default, clamped to 1..${MAX_LIMIT}.`),
  sort: queryValue("`desc` (default) or `asc`."),
  object_type: queryValue("With object_id: only activities about this object."),
  object_id: queryValue("With object_type: only activities about this object."),
  format: Type.Optional(OcsFormat),
  previews: queryValue("`true`: every element carries a `previews` list (always empty: Keystream holds no files)."),
});

const ScalarParameter = Type.Object(
  {
    type: Type.Union(PARAMETER_TYPES.filter((t) => t !== "collection").map((t) => Type.Literal(t))),
    value: Type.String({ maxLength: 4000 }),
    id: Type.Optional(Type.Integer({ minimum: 0, description: "A file's id (type `file` only)." })),
  },
  { additionalProperties: false },
);

const Parameter = Type.Union([
  ScalarParameter,
  Type.Object(
    {
      type: Type.Literal("collection"),
      value: Type.Array(ScalarParameter, { minItems: 1, maxItems: MAX_COLLECTION_ITEMS }),
    },
    { additionalProperties: false },
  ),
]);

/** Nextcloud's rich string `[template, objects]`: a pair, written as 2020-12 `prefixItems`. */
const RichString = Type.Unsafe<[string, unknown]>({
  type: "array",
  prefixItems: [
    Type.String(),
    Type.Union([Type.Record(Type.String(), Type.Record(Type.String(), Type.String())), Type.Array(Type.Any(), { maxItems: 0 })]),
  ],
  items: false,
  minItems: 2,
  description: "Nextcloud rich string: template with {placeholders}, and the objects they name ([] when none).",
});

export const ActivityElement = Type.Object(
  {
    activity_id: Type.Integer(),
    datetime: Type.String({ description: "ISO 8601, UTC, `+00:00` offset." }),
    app: Type.String(),
    type: Type.String(),
    user: Type.String(),
    affecteduser: Type.String(),
    subject: Type.String(),
    subjectparams: Type.Array(Parameter),
    subject_prepared: Type.String(),
    message: Type.String(),
    messageparams: Type.Array(Parameter),
    message_prepared: Type.String(),
    link: Type.String(),
    object_type: Type.String(),
    object_id: Type.Integer(),
    object_name: Type.String(),
    activity_ids: Type.Array(Type.Integer()),
    subject_rich: RichString,
    message_rich: RichString,
    objects: Type.Union([Type.Record(Type.String(), Type.String()), Type.Array(Type.String())], {
      description: '`{"<object_id>": "<object_name>"}`, or a list (PHP\'s `[]`).',
    }),
    icon: Type.String(),
    previews: Type.Optional(
      Type.Array(Type.Any(), { maxItems: 0, description: "Only with `previews=true`; always empty (no file previews)." }),
    ),
  },
  { additionalProperties: false, title: "ActivityElement" },
);

const STREAM_HEADERS = {
  etag: Type.String({ description: "MD5 of the page's ids." }),
  link: Type.Optional(Type.String({ description: 'The next page, `rel="next"`.' })),
  "x-activity-first-known": Type.Optional(Type.String()),
  "x-activity-last-given": Type.Optional(Type.String()),
};

const EmptyList = Type.Array(Type.Any(), { maxItems: 0 });

/**
 * The stream's answers (docs/upstream/nextcloud-activity.md §1.5 and activity-errors.ts): OCS envelopes,
 * 204 and 304 without body.
 */
const STREAM_RESPONSES = {
  200: ocsResponse("A page of the stream, newest first unless sort=asc.", Type.Array(ActivityElement), STREAM_HEADERS),
  204: emptyResponse("The user selected no activity type for the stream."),
  304: emptyResponse("Nothing to return, or If-None-Match names this very page."),
  401: AUTHENTICATION_RESPONSES[401],
  403: {
    description: "No credentials (JSON error body), or `since` names another user's activity (OCS envelope, data []).",
    content: {
      "application/json": {
        schema: Type.Union([
          ErrorBody,
          Type.Object({ ocs: Type.Object({ meta: Type.Any(), data: EmptyList }) }, { additionalProperties: false }),
        ]),
      },
    },
  },
  404: ocsResponse("Unknown filter.", EmptyList),
  429: AUTHENTICATION_RESPONSES[429],
  ...MAINTENANCE_RESPONSE,
};

export const streamRouteSchema = {
  tags: TAGS,
  summary: "The activity stream, filter `all` (API v2)",
  security: USER_SECURITY,
  querystring: StreamQuery,
  response: STREAM_RESPONSES,
};

export const filteredStreamRouteSchema = {
  ...streamRouteSchema,
  summary: "The activity stream of one filter (API v2)",
  params: Type.Object({ filter: Type.String({ description: "`all`, `self`, `by`, `files`, … (see filters)." }) }),
};

export const Filter = Type.Object(
  { id: Type.String(), name: Type.String(), icon: Type.String(), priority: Type.Integer() },
  { additionalProperties: false },
);

export const filtersRouteSchema = {
  tags: TAGS,
  summary: "The stream's filters",
  security: USER_SECURITY,
  querystring: Type.Object({ format: Type.Optional(OcsFormat) }),
  response: {
    200: ocsResponse("The filters, by priority.", Type.Array(Filter)),
    ...AUTHENTICATION_RESPONSES,
    403: { ...ErrorBody, description: "No credentials." },
    ...MAINTENANCE_RESPONSE,
  },
};

/** One event as `validateEvent` reads it (its messages are the refusals' wording). */
export const ActivityEvent = Type.Object(
  {
    app: Type.String({ minLength: 1, maxLength: 32 }),
    type: Type.String({ minLength: 1, maxLength: 255 }),
    affecteduser: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: "Exactly one of affecteduser, affectedusers." }),
    ),
    affectedusers: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: MAX_AFFECTED_USERS }),
    ),
    user: Type.Optional(Type.String({ maxLength: 64, description: "The author." })),
    subject: Type.String({ minLength: 1, maxLength: 255 }),
    subjectparams: Type.Optional(Type.Array(Parameter, { maxItems: MAX_PARAMETERS })),
    message: Type.Optional(Type.String({ maxLength: 255 })),
    messageparams: Type.Optional(Type.Array(Parameter, { maxItems: MAX_PARAMETERS })),
    link: Type.Optional(Type.String({ maxLength: 4000, description: "http(s) URL or a path on this server." })),
    object_type: Type.Optional(Type.String({ maxLength: 255 })),
    object_id: Type.Optional(Type.Integer({ minimum: 0 })),
    object_name: Type.Optional(Type.String({ maxLength: 4000 })),
    datetime: Type.Optional(
      Type.Union([Type.String({ description: "ISO 8601 with a time zone" }), Type.Integer({ minimum: 0 })]),
    ),
  },
  { additionalProperties: false, title: "ActivityEvent" },
);

export const PublishBody = Type.Union([ActivityEvent, Type.Array(ActivityEvent, { minItems: 1, maxItems: 1000 })]);

export const publishRouteSchema = {
  tags: TAGS,
  summary: "Publish events (administrators)",
  description:
    "All-or-nothing. With Idempotency-Key a retry within 24 h gets the first answer again (Idempotent-Replayed: true) and writes nothing.",
  security: [{ [SECURITY.appPassword]: [] }, { [SECURITY.bearer]: [] }, { [SECURITY.session]: [] }] as SecurityRequirements,
  headers: Type.Object({
    "idempotency-key": Type.Optional(
      Type.String({ description: "draft-ietf-httpapi-idempotency-key-header: a quoted string; per administrator." }),
    ),
  }),
  body: PublishBody,
  response: {
    201: {
      ...Type.Object({ ids: Type.Array(Type.Integer()) }, { additionalProperties: false }),
      description: "The new activity ids (one per affected user).",
      headers: { "idempotent-replayed": Type.String({ pattern: "^true$", description: "On a replay only." }) },
    },
    400: { ...ErrorBody, description: "`invalid_event` naming the element and field, or `invalid_idempotency_key`." },
    ...AUTHENTICATION_RESPONSES,
    403: { ...ErrorBody, description: "`forbidden`: not an administrator, or a write the credential may not make." },
    422: { ...ErrorBody, description: "`idempotency_key_reused` with another body." },
    ...MAINTENANCE_RESPONSE,
  },
};

const LegacyItem = Type.Object(
  {
    id: Type.Integer(),
    subject: Type.String(),
    message: Type.String(),
    file: Type.String(),
    link: Type.String(),
    date: Type.String(),
  },
  { additionalProperties: false },
);

export const legacyListRouteSchema = {
  tags: TAGS,
  summary: "The legacy activity list (API v1, offset paging)",
  security: USER_SECURITY,
  querystring: Type.Object({
    start: queryValue("Offset."),
    count: queryValue("Page size (1..200, default 30)."),
    page: queryValue("Page number from 0 (with pagesize)."),
    pagesize: queryValue("Page size (1..200, default 30)."),
    format: Type.Optional(OcsFormat),
  }),
  response: {
    200: ocsResponse("Items, newest first (OCS v1: statuscode 100).", Type.Array(LegacyItem)),
    ...AUTHENTICATION_RESPONSES,
    ...MAINTENANCE_RESPONSE,
  },
};

const StreamSettings = Type.Object(
  { stream: Type.Record(Type.String(), Type.Boolean(), { description: "Activity type → listed in the stream." }) },
  { additionalProperties: false, title: "StreamSettings" },
);

const SETTINGS_RESPONSES = {
  200: { ...StreamSettings, description: "The user's stream settings.", headers: { "cache-control": Type.Literal("no-store") } },
  ...AUTHENTICATION_RESPONSES,
  403: { ...ErrorBody, description: "No credentials, or a write the credential may not make." },
  ...MAINTENANCE_RESPONSE,
};

export const streamSettingsRouteSchema = {
  tags: TAGS,
  summary: "The user's stream settings",
  security: USER_SECURITY,
  response: SETTINGS_RESPONSES,
};

/** The body is read by the domain (`parseStreamSettingsUpdate`), which words the refusal. */
export const updateStreamSettingsRouteSchema = {
  tags: TAGS,
  summary: "Change the user's stream settings",
  security: USER_SECURITY,
  body: StreamSettings,
  response: {
    ...SETTINGS_RESPONSES,
    400: { ...ErrorBody, description: "`invalid_settings` naming the problem." },
  },
};
