import fs from "node:fs";
import path from "node:path";
import { run } from "./processes.js";

export interface TestPki {
  caCert: string;
  serverCert: string;
  serverKey: string;
  /** A copy of /etc/ssl/certs with the test CA added, to bind-mount over it in a private mount namespace. */
  trustDir: string;
}

/**
 * A throwaway CA made at test time, and a server certificate it signs for `localhost` and
 * 127.0.0.1. Nothing on the system trusts the CA: only the desktop client does, through a copy of
 * /etc/ssl/certs mounted over the real one in the client's own mount namespace (research §9.2).
 */
export function makeTestPki(dir: string): TestPki {
  fs.mkdirSync(dir, { recursive: true });
  const caKey = path.join(dir, "ca.key");
  const caCert = path.join(dir, "ca.pem");
  const serverKey = path.join(dir, "server.key");
  const serverCsr = path.join(dir, "server.csr");
  const serverCert = path.join(dir, "server.pem");
  const extensions = path.join(dir, "server.ext");
  run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    caKey,
    "-out",
    caCert,
    "-days",
    "2",
    "-subj",
    "/CN=Keystream client-test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  run("openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", serverKey, "-out", serverCsr, "-subj", "/CN=localhost"]);
  fs.writeFileSync(
    extensions,
    [
      "basicConstraints=CA:FALSE",
      "keyUsage=critical,digitalSignature,keyEncipherment",
      "extendedKeyUsage=serverAuth",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "",
    ].join("\n"),
  );
  run("openssl", [
    "x509",
    "-req",
    "-in",
    serverCsr,
    "-CA",
    caCert,
    "-CAkey",
    caKey,
    "-CAcreateserial",
    "-out",
    serverCert,
    "-days",
    "2",
    "-extfile",
    extensions,
  ]);

  // The trust store the client sees: the system's certificates (the symlinks are copied as they
  // are), plus the test CA as a hashed entry (Qt/OpenSSL directory look-up) and appended to the bundle.
  const trustDir = path.join(dir, "etc-ssl-certs");
  fs.cpSync("/etc/ssl/certs", trustDir, { recursive: true, verbatimSymlinks: true });
  const hash = run("openssl", ["x509", "-hash", "-noout", "-in", caCert]).trim();
  const pem = fs.readFileSync(caCert, "utf8");
  fs.writeFileSync(path.join(trustDir, "keystream-test-ca.pem"), pem);
  fs.writeFileSync(path.join(trustDir, `${hash}.0`), pem);
  const bundle = path.join(trustDir, "ca-certificates.crt");
  const system = fs.existsSync(bundle) ? fs.readFileSync(bundle, "utf8") : "";
  fs.rmSync(bundle, { force: true }); // may be a symlink into the real tree: replace, never write through
  fs.writeFileSync(bundle, `${system}${system.endsWith("\n") || system === "" ? "" : "\n"}${pem}`);
  return { caCert, serverCert, serverKey, trustDir };
}
