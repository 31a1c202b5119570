/**
 * A browser reduced to a cookie jar and manual redirects, over real HTTP (for servers that listen:
 * a test app on loopback, or `node dist/main.js` processes). Paths resolve against `base`;
 * absolute URLs go where they say, with the same jar: behind one reverse proxy, several nodes are
 * one site and get the same cookies.
 */
export class FetchBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly base?: string) {}

  async request(url: string, form?: Record<string, string>): Promise<Response> {
    const response = await fetch(new URL(url, this.base), {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: {
        accept: "text/html",
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const eq = pair.indexOf("=");
      const value = pair.slice(eq + 1);
      if (value === "" || /max-age=0|expires=Thu, 01 Jan 1970/i.test(header)) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), value);
    }
    return response;
  }
}
