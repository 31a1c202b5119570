import type { LightMyRequestResponse } from "fastify";
import type { TestApp } from "../support/app.js";

/** `Authorization: Basic` with a fresh app password (no argon2 per request, so tests stay fast). */
export async function basicAuthFor(t: TestApp, uid: string): Promise<string> {
  const { secret } = await t.services.appPasswords.create(uid, "activity test");
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
