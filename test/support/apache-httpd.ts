import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ProcessSet, run, type Started, waitFor } from "../clients/harness/processes.js";

/**
 * Apache httpd with Debian's mod_auth_openidc (libapache2-mod-auth-openidc), run as the test's own
 * foreground child from a temporary ServerRoot with its own configuration: no system service, no
 * file under /etc/apache2 is read. Each relying party is a virtual host on its own loopback port.
 */

export const APACHE_BINARY = "/usr/sbin/apache2";
export const MODULES = "/usr/lib/apache2/modules";
export const MOD_AUTH_OPENIDC = `${MODULES}/mod_auth_openidc.so`;

/** Is Apache with mod_auth_openidc installed here? */
export function apacheWithOpenidcInstalled(): boolean {
  return fs.existsSync(APACHE_BINARY) && fs.existsSync(MOD_AUTH_OPENIDC);
}

/** One virtual host: a relying party (and a resource server) of Keystream. */
export interface RelyingPartyHost {
  port: number;
  /** Directives inside the `<VirtualHost>` (the OIDC* ones), one a line. */
  directives: string[];
}

/**
 * The CGI script every protected location serves: the environment mod_auth_openidc set for the
 * request (REMOTE_USER, OIDC_CLAIM_*, OIDC_access_token, and the same as HTTP_ request headers), as
 * JSON.
 */
const ENV_CGI = `#!/usr/bin/python3
import json, os
print("Content-Type: application/json")
print("Cache-Control: no-store")
print()
print(json.dumps({k: v for k, v in os.environ.items() if k == "REMOTE_USER" or k.startswith(("OIDC_", "HTTP_OIDC_"))}))
`;

/** The CGI scripts and the landing page after logout, readable by the worker user. */
function writeDocuments(root: string): void {
  for (const folder of ["protected", "api"]) {
    fs.mkdirSync(path.join(root, folder), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(root, folder, "env.cgi"), ENV_CGI, { mode: 0o755 });
  }
  fs.writeFileSync(path.join(root, "loggedout.html"), "<!doctype html><title>Logged out</title><p>logged out</p>\n", {
    mode: 0o644,
  });
}

/** httpd.conf: prefork with mod_cgi, the modules the hosts need, every host's `<VirtualHost>`. */
function httpdConfig(dir: string, hosts: RelyingPartyHost[], caBundle: string): string {
  const modules = ["mpm_prefork", "authn_core", "authz_core", "authz_user", "mime", "cgi", "auth_openidc"];
  // Debian's apache2 refuses to keep root for its workers: they run as www-data, as the packaged
  // service's do.
  const runAs = process.getuid?.() === 0 ? "User www-data\nGroup www-data\n" : "";
  return `ServerRoot "${dir}"
ServerName 127.0.0.1
PidFile "${dir}/httpd.pid"
ErrorLog "${dir}/error.log"
LogLevel warn auth_openidc:info
${modules.map((name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`).join("\n")}
${runAs}StartServers 1
MinSpareServers 1
MaxSpareServers 4
MaxRequestWorkers 16
TypesConfig /etc/mime.types
DocumentRoot "${dir}/htdocs"
<Directory "${dir}/htdocs">
  Options +ExecCGI
  AddHandler cgi-script .cgi
  Require all granted
</Directory>
OIDCCryptoPassphrase "${randomBytes(24).toString("hex")}"
OIDCCABundlePath "${caBundle}"
${hosts
  .map(
    (host) => `Listen 127.0.0.1:${host.port}
<VirtualHost 127.0.0.1:${host.port}>
  ServerName 127.0.0.1:${host.port}
  ${host.directives.join("\n  ")}
  <Location /protected>
    AuthType openid-connect
    Require valid-user
  </Location>
  <Location /api>
    AuthType oauth20
    Require valid-user
  </Location>
</VirtualHost>`,
  )
  .join("\n")}
`;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

/** A running Apache; `stop` ends it (its process group) and removes its ServerRoot unless kept. */
export interface RunningApache {
  dir: string;
  process: Started;
  errorLog(): string;
  stop(keepFiles: boolean): Promise<void>;
}

/** `caBundle`: the certificates mod_auth_openidc trusts for https (tlsFront's). */
export async function startApache(hosts: RelyingPartyHost[], caBundle: string): Promise<RunningApache> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-apache-"));
  fs.chmodSync(dir, 0o755);
  writeDocuments(path.join(dir, "htdocs"));
  const config = path.join(dir, "httpd.conf");
  fs.writeFileSync(config, httpdConfig(dir, hosts, caBundle));
  const errorLog = () => (fs.existsSync(path.join(dir, "error.log")) ? fs.readFileSync(path.join(dir, "error.log"), "utf8") : "");
  const processes = new ProcessSet();
  // -D FOREGROUND: the parent stays the test's child (no daemon), its workers in its process group.
  const started = processes.start("apache2", APACHE_BINARY, ["-d", dir, "-f", config, "-D", "FOREGROUND"], {
    logFile: path.join(dir, "stdout.log"),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C" },
  });
  await waitFor(
    "apache2 to listen",
    async () => {
      if (!started.isRunning()) {
        throw new Error(`apache2 exited: ${fs.readFileSync(path.join(dir, "stdout.log"), "utf8")}\n${errorLog()}`);
      }
      for (const host of hosts) if (!(await listening(host.port))) return false;
      return true;
    },
    15_000,
    50,
  );
  return {
    dir,
    process: started,
    errorLog,
    async stop(keepFiles) {
      await processes.stopAll();
      if (keepFiles) process.stderr.write(`Apache files and logs kept in ${dir}\n`);
      else fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The fields of the first HTML form on a page: its action and its hidden inputs (entities decoded). */
export function formOf(page: string): { action: string; fields: Record<string, string> } {
  const decode = (value: string) =>
    value
      .replace(/&quot;/g, '"')
      .replace(/&#0*39;|&apos;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
      .replace(/&#([0-9]+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
      .replace(/&amp;/g, "&");
  const form = /<form\b[^>]*\baction="([^"]*)"/i.exec(page);
  if (!form) throw new Error(`no form on the page:\n${page}`);
  const fields: Record<string, string> = {};
  for (const input of page.matchAll(/<input\b[^>]*>/gi)) {
    const name = /\bname="([^"]*)"/i.exec(input[0])?.[1];
    const value = /\bvalue="([^"]*)"/i.exec(input[0])?.[1] ?? "";
    if (name !== undefined) fields[decode(name)] = decode(value);
  }
  return { action: decode(form[1] ?? ""), fields };
}

/** Keystream over https, as a TLS-terminating proxy in front of it makes it. */
export interface TlsFront {
  /** https://127.0.0.1:port */
  origin: string;
  /** The self-signed certificate (PEM), to trust. */
  certificate: string;
  close(): Promise<void>;
}

/**
 * An https front for Keystream on loopback (a throwaway self-signed certificate for 127.0.0.1, made
 * with openssl): mod_auth_openidc takes an introspection endpoint it is given directly only as an
 * https URL. Every request is passed to `target` as it came.
 */
export async function tlsFront(target: string): Promise<TlsFront> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-tls-front-"));
  const key = path.join(dir, "key.pem");
  const certificate = path.join(dir, "cert.pem");
  run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    key,
    "-out",
    certificate,
    "-days",
    "2",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1",
  ]);
  fs.chmodSync(dir, 0o755);
  fs.chmodSync(certificate, 0o644);
  const upstream = new URL(target);
  const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(certificate) }, (request, response) => {
    const forwarded = http.request(
      { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on("error", () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    certificate,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
