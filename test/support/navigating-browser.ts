import http from "node:http";

/**
 * A browser reduced to a cookie jar and manual redirects, like FetchBrowser, whose requests are
 * top-level navigations as a browser sends them (Fetch Metadata `Sec-Fetch-Mode: navigate`,
 * `Sec-Fetch-Dest: document`). fetch() always says `cors`, and a relying party such as
 * mod_auth_openidc answers a non-navigation 401 instead of sending it to sign in; so this one
 * speaks node:http. Answers are fetch `Response`s; paths resolve against `base`.
 */
export class NavigatingBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly base?: string) {}

  request(url: string, form?: Record<string, string>): Promise<Response> {
    const target = new URL(url, this.base);
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const headers: Record<string, string> = {
      accept: "text/html,application/xhtml+xml",
      "sec-fetch-mode": "navigate",
      "sec-fetch-dest": "document",
      "user-agent": "NavigatingBrowser",
    };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    if (body !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      headers["content-length"] = String(Buffer.byteLength(body));
    }
    return new Promise((resolve, reject) => {
      const request = http.request(target, { method: form ? "POST" : "GET", headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const answer = new Headers();
          for (let i = 0; i < response.rawHeaders.length; i += 2) {
            answer.append(response.rawHeaders[i] as string, response.rawHeaders[i + 1] as string);
          }
          this.keepCookies(answer.getSetCookie());
          const status = response.statusCode ?? 0;
          const content = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(content, { status, headers: answer }));
        });
        response.on("error", reject);
      });
      request.on("error", reject);
      request.end(body);
    });
  }

  private keepCookies(setCookies: string[]): void {
    for (const header of setCookies) {
      const [pair = ""] = header.split(";");
      const eq = pair.indexOf("=");
      const value = pair.slice(eq + 1);
      if (value === "" || /max-age=0|expires=Thu, 01 Jan 1970/i.test(header)) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), value);
    }
  }
}
