import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it, type TestContext } from "node:test";
import { UserBrowser } from "./browser.js";
import { type ClientRun, type Desktop, type DesktopClientKind, startDesktop } from "./desktop.js";
import { FileServer } from "./file-server.js";
import { Keystream } from "./keystream.js";
import { fileActivityLog, startNginx } from "./nginx.js";
import { missingPrerequisites } from "./preflight.js";
import { freePort, ProcessSet, waitFor } from "./processes.js";
import { httpsGet, note } from "./scenario.js";
import { makeTestPki, type TestPki } from "./tls.js";

/**
 * The deployment both desktop-client tests run against, set up and torn down the same way:
 * a work directory, a test CA, Keystream (with nginx's file-activity log) holding the user and the
 * published activities, the file server with the user's folder, nginx terminating TLS in front of
 * both, Xvfb + D-Bus + gnome-keyring, and Chromium as the user's browser. What differs per client
 * (its settings, its log lines worth quoting, any extra occ before the start) comes in as options.
 */

export interface StageUser {
  uid: string;
  password: string;
  displayName: string;
  email: string;
}

export interface StageOptions {
  /** Prefix of the work directory under the system's temp dir. */
  workPrefix: string;
  user: StageUser;
  /** Published with `./occ activity:publish` before Keystream starts. */
  activities: unknown[];
  /** Timeout of each step. */
  stepTimeoutMs: number;
  /** More occ commands after the user and the activities, before Keystream starts. */
  beforeStart?: (keystream: Keystream) => void;
  /** The client's own settings written into the desktop's home before its first start. */
  seedDesktop: (desktop: Desktop) => void;
  /** The client runs whose selected log lines are printed at the end. */
  clientRuns: () => ClientRun[];
  /** The lines of a client's log worth quoting. */
  interestingLines: (log: string) => string[];
}

/**
 * Registers a `describe` titled `title` whose body runs only with the client's prerequisites
 * installed: skipped with the reason otherwise, but never skipped in CI (the run fails with the reason).
 */
export function describeClientTest(kind: DesktopClientKind, title: string, body: () => void): void {
  const missing = missingPrerequisites(kind);
  if (missing.length > 0 && process.env.CI === "true") {
    describe(title, () => {
      it("has its prerequisites installed (test/clients/install.sh)", () => {
        assert.fail(`cannot run the client test: ${missing.join("; ")}`);
      });
    });
  } else {
    describe(title, { skip: missing.length > 0 ? missing.join("; ") : false }, body);
  }
}

export class Stage {
  readonly processes = new ProcessSet();
  private readonly started = Date.now();
  /** Set while the set-up is incomplete and after a step failed: later steps stop, the logs are kept. */
  private failed = false;
  work!: string;
  pki!: TestPki;
  keystream!: Keystream;
  files!: FileServer;
  nginxDir!: string;
  desktop!: Desktop;
  browser!: UserBrowser;
  /** nginx's HTTPS URL, what the client is given. */
  publicUrl!: string;

  private constructor(private readonly options: StageOptions) {}

  /** A stage set up in the enclosing `describe`'s `before` and torn down in its `after`. */
  static inDescribe(options: StageOptions): Stage {
    const stage = new Stage(options);
    before(() => stage.setUp());
    after(() => stage.tearDown());
    return stage;
  }

  /** A test that depends on the earlier ones: after a failure it stops at once instead of timing out. */
  step(name: string, body: (t: TestContext) => Promise<void>): void {
    it(name, { timeout: this.options.stepTimeoutMs }, async (t) => {
      if (this.failed) throw new Error("an earlier step failed");
      note(name);
      try {
        await body(t);
      } catch (error) {
        this.failed = true;
        throw error;
      }
    });
  }

  // Interrupted (Ctrl-C, CI timeout): still end everything started, by PID.
  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.processes.killAllNow();
    process.stderr.write(`client test: ${signal}, stopped ${this.processes.describe()}\n`);
    process.exit(130);
  };

  private async setUp(): Promise<void> {
    const { user } = this.options;
    process.once("SIGINT", this.onSignal);
    process.once("SIGTERM", this.onSignal);
    this.failed = true; // until the set-up is complete (keeps the logs if it is not)
    this.work = fs.mkdtempSync(path.join(os.tmpdir(), this.options.workPrefix));
    this.pki = makeTestPki(path.join(this.work, "pki"));
    const [keystreamPort, nginxPort] = [await freePort(), await freePort()];
    this.publicUrl = `https://localhost:${nginxPort}`;
    this.nginxDir = path.join(this.work, "nginx");
    this.keystream = new Keystream(this.processes, {
      dataDir: path.join(this.work, "data"),
      port: keystreamPort,
      logFile: path.join(this.work, "keystream.log"),
      publicUrl: this.publicUrl,
      fileLog: fileActivityLog(this.nginxDir),
    });
    this.keystream.occ(["config:system:set", "overwrite.cli.url", `--value=${this.publicUrl}`]);
    this.keystream.occ(
      ["user:add", user.uid, `--display-name=${user.displayName}`, `--email=${user.email}`, "--password-from-env"],
      { OC_PASS: user.password },
    );
    this.keystream.occ(["activity:publish", `--json=${JSON.stringify(this.options.activities)}`]);
    this.options.beforeStart?.(this.keystream);
    await this.keystream.start();
    this.files = new FileServer(this.processes, { dir: path.join(this.work, "files"), port: await freePort() });
    await this.files.start();
    this.files.folderOf(user.uid); // created by the operator with the account (docs/deployment.md)
    startNginx(this.processes, {
      dir: this.nginxDir,
      port: nginxPort,
      tls: { serverCert: this.pki.serverCert, serverKey: this.pki.serverKey },
      keystream: this.keystream.url,
      fileServer: this.files.url,
      account: { uid: user.uid, password: user.password },
    });
    await waitFor(
      "nginx to serve status.php over TLS",
      async () => {
        const status = await httpsGet(`${this.publicUrl}/status.php`, this.pki.caCert).catch(() => undefined);
        return status?.status === 200 ? status : undefined;
      },
      15_000,
    );
    this.desktop = await startDesktop(this.processes, path.join(this.work, "desktop"));
    this.options.seedDesktop(this.desktop);
    this.browser = await UserBrowser.launch(path.join(this.work, "browser-home"));
    this.failed = false;
  }

  private async tearDown(): Promise<void> {
    process.off("SIGINT", this.onSignal);
    process.off("SIGTERM", this.onSignal);
    await this.browser?.close();
    const pids = this.processes.describe();
    await this.processes.stopAll();
    const seconds = Math.round((Date.now() - this.started) / 1000);
    process.stdout.write(`client test: ${seconds} s; stopped by PID: ${pids}\n`);
    if (this.work) {
      for (const run of this.options.clientRuns()) {
        process.stdout.write(`--- ${path.basename(run.logFile)} (selected lines) ---\n`);
        for (const line of this.options.interestingLines(run.log())) process.stdout.write(`${line}\n`);
      }
      if (this.failed || process.env.KEEP_CLIENT_TEST_LOGS) process.stdout.write(`logs kept in ${this.work}\n`);
      else fs.rmSync(this.work, { recursive: true, force: true });
    }
  }
}
