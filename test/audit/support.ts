import assert from "node:assert/strict";
import type { LightMyRequestResponse } from "fastify";
import type { AuditKind } from "../../src/audit/domain/kinds.js";
import type { AuditEvent } from "../../src/audit/ports.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";

/**
 * A browser with a fixed client address and User-Agent, whose every request is sent with them:
 * the audit events its requests cause must name both.
 */
export class AuditBrowser {
  readonly form: FormClient;

  constructor(
    t: Pick<TestApp, "app">,
    readonly address: string,
    readonly userAgent: string,
  ) {
    this.form = new FormClient(t.app, address);
  }

  get(url: string): Promise<LightMyRequestResponse> {
    return this.form.get(url, { "user-agent": this.userAgent });
  }

  post(url: string, form: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.form.post(url, form, { "user-agent": this.userAgent });
  }

  /** The login form, as a person fills it in. */
  async login(user: string, password: string): Promise<LightMyRequestResponse> {
    const page = await this.get("/index.php/login");
    return this.post("/index.php/login", { user, password, requesttoken: requestTokenOf(page.body) });
  }

  /** The CSRF token of a page (for its forms). */
  async tokenOf(url: string): Promise<string> {
    const page = await this.get(url);
    assert.equal(page.statusCode, 200, page.body.slice(0, 500));
    return requestTokenOf(page.body);
  }
}

/** The id of the newest event so far (0 when none): what happens after it is new. */
export async function lastEventId(t: Pick<TestApp, "services">): Promise<number> {
  const [newest] = await t.services.audit.query({ limit: 1 });
  return newest?.id ?? 0;
}

/** The events of `kind` written after the event `afterId`, oldest first. */
export async function eventsSince(t: Pick<TestApp, "services">, afterId: number, kind?: AuditKind): Promise<AuditEvent[]> {
  const events = await t.services.audit.query({ kind, limit: 1000 });
  return events.filter((e) => e.id > afterId).reverse();
}

/** The request id a response carries (X-Request-Id, the access log's reqId). */
export function requestIdOf(response: LightMyRequestResponse): string {
  const id = response.headers["x-request-id"];
  assert.equal(typeof id, "string");
  return id as string;
}
