import type { FastifyReply, FastifyRequest } from "fastify";
import { type ActivityError, activityErrorMessage } from "../activity/domain/errors.js";
import type { JsonEnvelope } from "../activity/service.js";
import { toXml } from "./ocs.js";

/** The OCS envelope of a JSON answer by status: the same objects every time (ActivityService.answerJson keys on them). */
const envelopes = new Map<number, JsonEnvelope & { headText: string }>();

function jsonEnvelope(status: number, meta: object): JsonEnvelope & { headText: string } {
  let envelope = envelopes.get(status);
  if (!envelope) {
    // The same text as JSON.stringify({ ocs: { meta, data } }) around the data's own serialisation.
    const headText = `{"ocs":{"meta":${JSON.stringify(meta)},"data":`;
    envelope = { head: Buffer.from(headText), headText, tail: Buffer.from("}}") };
    envelopes.set(status, envelope);
  }
  return envelope;
}

/**
 * The one place activity errors become HTTP (docs/upstream/nextcloud-activity.md §1.5): unknown filter → 404, `since` of
 * another user → 403 (both an OCS envelope with `data: []`), no selected type → 204 (empty
 * body), refused input → 400 with a message naming the element and field, an idempotency key
 * reused for another body → 422 (draft-ietf-httpapi-idempotency-key-header §2.7).
 */
export function sendActivityError(request: FastifyRequest, reply: FastifyReply, error: ActivityError): FastifyReply {
  switch (error.code) {
    case "unknown_filter":
      return sendActivityOcs(request, reply, [], 404);
    case "foreign_since":
      return sendActivityOcs(request, reply, [], 403);
    case "stream_disabled":
      return reply.status(204).send();
    case "invalid_event":
    case "invalid_settings":
    case "invalid_idempotency_key":
      return reply.status(400).send({ error: error.code, error_description: activityErrorMessage(error) });
    case "idempotency_key_reused":
      return reply.status(422).send({ error: error.code, error_description: activityErrorMessage(error) });
  }
}

/**
 * The OCS v2 envelope for the activity API: JSON unless `format=xml` (or an Accept header that
 * asks for XML and not JSON), as Nextcloud's OCS answers; meta.message is "OK" on success, "" otherwise.
 */
export function sendActivityOcs(request: FastifyRequest, reply: FastifyReply, data: unknown, status = 200): FastifyReply {
  return sendActivityStream(request, reply, { value: () => data, json: () => JSON.stringify(data) }, status);
}

/**
 * sendActivityOcs for data that can also be given as its JSON text, or as the whole answer's bytes
 * made around the data with the given envelope (the stream's elements, rendered from caches): only
 * the form the answer uses is made.
 */
export function sendActivityStream(
  request: FastifyRequest,
  reply: FastifyReply,
  data: { value(): unknown; json(envelope: JsonEnvelope): string | Buffer },
  status = 200,
): FastifyReply {
  const ok = status >= 200 && status < 300;
  const meta = { status: ok ? "ok" : "failure", statuscode: status, message: ok ? "OK" : "" };
  const format = (request.query as Record<string, unknown> | undefined)?.format;
  const accept = request.headers.accept ?? "";
  const xml = format === "xml" || (format !== "json" && /application\/xml/.test(accept) && !/application\/json/.test(accept));
  reply.status(status).header("cache-control", "no-cache, no-store, must-revalidate");
  if (xml) {
    return reply
      .header("content-type", "application/xml; charset=utf-8")
      .send(`<?xml version="1.0"?>\n<ocs>${toXml({ meta, data: data.value() })}</ocs>\n`);
  }
  reply.header("content-type", "application/json; charset=utf-8");
  const envelope = jsonEnvelope(status, meta);
  const json = data.json(envelope);
  return reply.send(typeof json === "string" ? `${envelope.headText}${json}}}` : json);
}
