import http from "node:http";

/**
 * The WebDAV companion: the file server a Keystream deployment sits next to, reduced to what the
 * ownCloud desktop client needs to finish its wizard and a first sync on an empty folder
 * (research/owncloud-desktop-client.md §8 rows 2, 7, 11, 12, 14). It is a test fixture, not
 * shipped in src/.
 *
 * It trusts no token by itself: every request with a bearer token is checked with Keystream's
 * RFC 7662 introspection endpoint, as a confidential client (HTTP Basic), and every request with
 * Basic credentials (an app password) with Keystream's `cloud/user`, both with no caching, so a
 * revoke in Keystream takes effect on the very next request.
 */
export interface CompanionOptions {
  /** Keystream's introspection endpoint, e.g. http://127.0.0.1:8080/index.php/apps/oauth2/api/v1/introspect */
  introspectionUrl: string;
  clientId: string;
  clientSecret: string;
  /**
   * Keystream's `…/ocs/v1.php/cloud/user?format=json`: when given, HTTP Basic credentials (the
   * Nextcloud client's app password) are accepted too, by asking Keystream whose they are.
   */
  userUrl?: string;
  host?: string;
  port?: number;
  realm?: string;
}

export interface CompanionRequest {
  method: string;
  path: string;
  depth: string | undefined;
  status: number;
  /** The token's user when the introspection said active. */
  user?: string;
  /** "none" (no Authorization), "active", "inactive", or "error: …" when introspection failed. */
  auth: string;
  at: number;
}

export interface Companion {
  url: string;
  requests: CompanionRequest[];
  close(): Promise<void>;
}

const XML = "application/xml; charset=utf-8"; // exactly this string: the client compares it (§3.2)
/** A fixed date and ETag: the folder never changes, so the client's ETag poll stays quiet. */
const ROOT_MTIME = new Date(Date.UTC(2026, 0, 1)).toUTCString();
const ROOT_ETAG = '"keystream-companion-root"';

export async function introspect(options: CompanionOptions, token: string): Promise<{ active: boolean; user?: string }> {
  const basic = Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`).toString(
    "base64",
  );
  const response = await fetch(options.introspectionUrl, {
    method: "POST",
    headers: {
      authorization: `Basic ${basic}`,
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    },
    body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status !== 200) throw new Error(`introspection answered HTTP ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as Record<string, unknown>;
  if (body.active !== true) return { active: false };
  const user = [body.username, body.sub, body.user_id].find((v): v is string => typeof v === "string" && v !== "");
  return user === undefined ? { active: true } : { active: true, user };
}

/** Whose Basic credentials these are, asked of Keystream's OCS `cloud/user` (OCS v1: statuscode 100). */
export async function basicUser(userUrl: string, authorization: string): Promise<{ active: boolean; user?: string }> {
  const response = await fetch(userUrl, {
    headers: { authorization, "ocs-apirequest": "true", accept: "application/json" },
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status === 401) return { active: false };
  if (response.status !== 200) throw new Error(`cloud/user answered HTTP ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { ocs?: { meta?: { statuscode?: number }; data?: { id?: unknown } } };
  const id = body.ocs?.data?.id;
  return body.ocs?.meta?.statuscode === 100 && typeof id === "string" && id !== ""
    ? { active: true, user: id }
    : { active: false };
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A 207 for the (empty) root collection only, whatever the Depth: there is nothing below it. */
function rootMultistatus(href: string, user: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<d:multistatus xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:s="http://sabredav.org/ns">
<d:response><d:href>${escapeXml(href)}</d:href><d:propstat><d:prop>
<d:resourcetype><d:collection/></d:resourcetype>
<d:getlastmodified>${ROOT_MTIME}</d:getlastmodified>
<d:getetag>${ROOT_ETAG}</d:getetag>
<d:quota-used-bytes>0</d:quota-used-bytes>
<d:quota-available-bytes>-3</d:quota-available-bytes>
<oc:id>00000001companion</oc:id>
<oc:fileid>1</oc:fileid>
<oc:permissions>RDNVCK</oc:permissions>
<oc:size>0</oc:size>
<oc:owner-id>${escapeXml(user)}</oc:owner-id>
<oc:data-fingerprint></oc:data-fingerprint>
</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
</d:multistatus>
`;
}

/** The DAV root a path is under, with the user segment for /remote.php/dav/files/<user>/. */
function davRoot(path: string): { root: string; user?: string } | undefined {
  if (path === "/remote.php/webdav" || path === "/remote.php/webdav/") return { root: "/remote.php/webdav/" };
  const files = /^\/remote\.php\/dav\/files\/([^/]+)\/?$/.exec(path);
  if (files?.[1]) return { root: `/remote.php/dav/files/${files[1]}/`, user: decodeURIComponent(files[1]) };
  return undefined;
}

export async function startCompanion(options: CompanionOptions): Promise<Companion> {
  const realm = options.realm ?? "Keystream";
  const requests: CompanionRequest[] = [];

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk)); // drained, never parsed: any body is fine (§3.2, the stray "M")
    request.on("end", () => {
      handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
        response.end(`companion error: ${String(error)}\n`);
      });
    });
  });

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const method = request.method ?? "GET";
    const path = new URL(request.url ?? "/", "http://companion.invalid").pathname;
    const depthHeader = request.headers.depth;
    const record: CompanionRequest = {
      method,
      path,
      depth: typeof depthHeader === "string" ? depthHeader : undefined,
      status: 0,
      auth: "none",
      at: Date.now(),
    };
    requests.push(record);
    const send = (status: number, headers: Record<string, string>, body = "") => {
      record.status = status;
      response.writeHead(status, { "content-length": String(Buffer.byteLength(body)), ...headers });
      response.end(method === "HEAD" ? undefined : body);
    };

    const authorization = request.headers.authorization ?? "";
    const bearer = /^bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    const basic = options.userUrl !== undefined && /^basic\s+\S+\s*$/i.test(authorization);
    if (!bearer && !basic) {
      // The space after "Bearer" is what makes the client choose OAuth (§1.3); a bare "Bearer" means Basic to it.
      if (authorization !== "") record.auth = "unsupported scheme";
      send(401, { "www-authenticate": `Bearer realm="${realm}"`, "content-type": XML }, unauthenticatedBody());
      return;
    }
    let result: { active: boolean; user?: string };
    try {
      result = bearer ? await introspect(options, bearer) : await basicUser(options.userUrl!, authorization);
    } catch (error) {
      record.auth = `error: ${(error as Error).message}`;
      send(503, { "content-type": "text/plain; charset=utf-8" }, "credentials check failed\n");
      return;
    }
    if (!result.active || result.user === undefined) {
      record.auth = "inactive";
      send(
        401,
        { "www-authenticate": `Bearer realm="${realm}", error="invalid_token"`, "content-type": XML },
        unauthenticatedBody(),
      );
      return;
    }
    record.auth = "active";
    record.user = result.user;

    if (/^\/remote\.php\/dav\/avatars\//.test(path)) {
      send(404, { "content-type": "text/plain; charset=utf-8" }, "no avatar\n");
      return;
    }
    const target = davRoot(path);
    if (!target) {
      send(404, { "content-type": XML }, notFoundBody(path));
      return;
    }
    if (target.user !== undefined && target.user.toLowerCase() !== result.user.toLowerCase()) {
      send(403, { "content-type": XML }, "");
      return;
    }
    switch (method) {
      case "PROPFIND":
        send(207, { "content-type": XML, dav: "1, 3" }, rootMultistatus(target.root, result.user));
        return;
      case "HEAD":
      case "GET":
        send(200, { "content-type": "httpd/unix-directory", etag: ROOT_ETAG, "last-modified": ROOT_MTIME });
        return;
      case "OPTIONS":
        send(200, { dav: "1, 3", allow: "OPTIONS, GET, HEAD, PROPFIND" });
        return;
      case "MKCOL":
        send(405, { "content-type": XML, allow: "OPTIONS, GET, HEAD, PROPFIND" }, "");
        return;
      default:
        send(403, { "content-type": XML }, ""); // a read-only, empty folder
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function unauthenticatedBody(): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns"><s:message>No valid bearer token was given</s:message></d:error>
`;
}

function notFoundBody(path: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns"><s:message>${escapeXml(path)} not found</s:message></d:error>
`;
}

// Standalone, to try it by hand:
//   COMPANION_PORT=8081 KEYSTREAM_INTROSPECTION_URL=… COMPANION_CLIENT_ID=… COMPANION_CLIENT_SECRET=… \
//   node --import tsx test/clients/webdav-companion.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  const env = process.env;
  startCompanion({
    introspectionUrl: env.KEYSTREAM_INTROSPECTION_URL ?? "http://127.0.0.1:8080/index.php/apps/oauth2/api/v1/introspect",
    clientId: env.COMPANION_CLIENT_ID ?? "",
    clientSecret: env.COMPANION_CLIENT_SECRET ?? "",
    port: Number(env.COMPANION_PORT ?? 8081),
  }).then((companion) => process.stdout.write(`WebDAV companion at ${companion.url}/remote.php/webdav/\n`));
}
