import type { FastifyInstance, LightMyRequestResponse } from "fastify";

/**
 * A tiny cookie-jar client over `app.inject`, for driving HTML forms the way a browser does
 * (cookies kept, hidden `requesttoken` read from the page). Real-browser tests live in test/e2e.
 */
export class FormClient {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly remoteAddress = "127.0.0.1",
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private remember(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies as Array<{ name: string; value: string; expires?: Date; maxAge?: number }>) {
      const expired = (cookie.expires && cookie.expires.getTime() <= Date.now()) || cookie.maxAge === 0 || cookie.value === "";
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method: "GET",
      url,
      remoteAddress: this.remoteAddress,
      headers: { cookie: this.cookieHeader, ...headers },
    });
    this.remember(response);
    return response;
  }

  async post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method: "POST",
      url,
      remoteAddress: this.remoteAddress,
      payload: new URLSearchParams(form).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: this.cookieHeader, ...headers },
    });
    this.remember(response);
    return response;
  }

  /** Logs in through the real form; returns the POST's response. */
  async login(user: string, password: string, redirectUrl?: string): Promise<LightMyRequestResponse> {
    const page = await this.get(`/index.php/login${redirectUrl ? `?redirect_url=${encodeURIComponent(redirectUrl)}` : ""}`);
    const form: Record<string, string> = { user, password, requesttoken: requestTokenOf(page.body) };
    if (redirectUrl) form.redirect_url = redirectUrl;
    return this.post("/index.php/login", form);
  }
}

export function requestTokenOf(page: string): string {
  const match = /name="requesttoken" value="([^"]+)"/.exec(page);
  if (!match?.[1]) throw new Error("no requesttoken on the page");
  return match[1];
}
