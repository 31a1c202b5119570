import type { LightMyRequestResponse } from "fastify";
import type { TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";

/** `Authorization: Basic` with a fresh app password (no argon2 per request, so tests stay fast). */
export async function basicAuthFor(t: TestApp, uid: string): Promise<string> {
  const { secret } = accepted(await t.services.appPasswords.create(uid, "activity test"));
  return `Basic ${Buffer.from(`${uid}:${secret}`).toString("base64")}`;
}

export function fileEvent(affecteduser: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    app: "files",
    type: "file_changed",
    affecteduser,
    user: affecteduser,
    subject: "changed_self",
    subjectparams: [{ type: "file", value: "/doc.txt", id: 7 }],
    object_type: "files",
    object_id: 7,
    object_name: "/doc.txt",
    ...overrides,
  };
}

/** Publishes through the service and returns the ids (fails the test on a refusal). */
export async function publish(t: TestApp, events: unknown): Promise<number[]> {
  const result = await t.services.activity.publish(events);
  if (!result.ok) throw new Error(`publish refused: ${JSON.stringify(result.error)}`);
  return result.value;
}

export async function get(
  t: TestApp,
  url: string,
  auth?: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: "GET", url, headers: { ...(auth ? { authorization: auth } : {}), ...headers } });
}

export interface OcsBody {
  ocs: { meta: { status: string; statuscode: number; message: string }; data: any };
}

export function ocsData(response: LightMyRequestResponse): any[] {
  return (JSON.parse(response.body) as OcsBody).ocs.data;
}

export function ids(response: LightMyRequestResponse): number[] {
  return ocsData(response).map((e: { activity_id: number }) => e.activity_id);
}

/** A line of the `keystream_files` log format (deploy/nginx/keystream-files-log.conf), as nginx writes it. */
export interface ProxyLogFields {
  id: number | string;
  method?: string;
  status?: number;
  uri: string;
  destination?: string;
  user?: string;
  /** Epoch seconds; the ManualClock's start by default. */
  msec?: number;
}

export function proxyLogLine(fields: ProxyLogFields): string {
  const requestId = typeof fields.id === "number" ? fields.id.toString(16).padStart(32, "0") : fields.id;
  return `${JSON.stringify({
    request_id: requestId,
    msec: `${fields.msec ?? 4_000_000_000}.123`,
    status: String(fields.status ?? 201),
    method: fields.method ?? "PUT",
    uri: fields.uri,
    destination: fields.destination ?? "",
    user: fields.user ?? "alice",
  })}\n`;
}
