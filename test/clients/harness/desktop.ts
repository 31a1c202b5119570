import fs from "node:fs";
import path from "node:path";
import { delay, type ProcessSet, readIfExists, run, type Started, waitFor } from "./processes.js";

/**
 * A desktop for the desktop clients without a desktop (research/owncloud-desktop-client.md §9):
 * Xvfb, a private D-Bus session bus with an unlocked gnome-keyring (so the refresh token is
 * stored and survives a restart), and an `xdg-open` shim first on PATH that records the URL the
 * client wants a browser for.
 */
export interface Desktop {
  display: string;
  busAddress: string;
  home: string;
  /** The file the xdg-open shim appends each URL to, one per line. */
  openedUrlsFile: string;
  shimDir: string;
  openedUrls(): string[];
}

export async function startDesktop(processes: ProcessSet, dir: string): Promise<Desktop> {
  fs.mkdirSync(dir, { recursive: true });
  const home = path.join(dir, "home");
  const runtime = path.join(dir, "runtime");
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(runtime, { recursive: true, mode: 0o700 });
  fs.chmodSync(runtime, 0o700);

  // Xvfb picks a free display itself and writes its number to fd 3.
  const xvfb = processes.start("Xvfb", "/usr/bin/Xvfb", ["-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"], {
    logFile: path.join(dir, "xvfb.log"),
    extraPipe: true,
  });
  const displayNumber = await new Promise<string>((resolve, reject) => {
    let text = "";
    const pipe = xvfb.child.stdio[3] as NodeJS.ReadableStream | null;
    const timer = setTimeout(
      () => reject(new Error(`Xvfb gave no display number: ${readIfExists(path.join(dir, "xvfb.log"))}`)),
      15_000,
    );
    pipe?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes("\n")) {
        clearTimeout(timer);
        resolve(text.trim());
      }
    });
    xvfb.exited.then((code) => reject(new Error(`Xvfb exited (${code}): ${readIfExists(path.join(dir, "xvfb.log"))}`)));
  });
  const display = `:${displayNumber}`;

  // A session bus of our own (not dbus-launch, which would leave a daemon we did not start by PID).
  const busSocket = path.join(runtime, "bus");
  const busAddress = `unix:path=${busSocket}`;
  const baseEnv = {
    PATH: "/usr/bin:/bin",
    HOME: home,
    XDG_RUNTIME_DIR: runtime,
    DISPLAY: display,
    DBUS_SESSION_BUS_ADDRESS: busAddress,
    LANG: "C.UTF-8",
  };
  processes.start("dbus-daemon", "/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", `--address=${busAddress}`], {
    env: baseEnv,
    logFile: path.join(dir, "dbus.log"),
  });
  await waitFor("the D-Bus session socket", () => fs.existsSync(busSocket), 10_000);

  // gnome-keyring in the foreground, its login keyring created and unlocked with the password on stdin.
  processes.start("gnome-keyring", "/usr/bin/gnome-keyring-daemon", ["--foreground", "--unlock", "--components=secrets"], {
    env: baseEnv,
    logFile: path.join(dir, "keyring.log"),
    stdin: "keystream-test-keyring",
  });
  await waitFor(
    "gnome-keyring to own org.freedesktop.secrets",
    () => {
      try {
        return run(
          "dbus-send",
          [
            "--session",
            "--print-reply",
            "--dest=org.freedesktop.DBus",
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus.NameHasOwner",
            "string:org.freedesktop.secrets",
          ],
          { env: baseEnv },
        ).includes("boolean true");
      } catch {
        return false;
      }
    },
    15_000,
  );

  const shimDir = path.join(dir, "shim");
  const openedUrlsFile = path.join(dir, "opened-urls.txt");
  fs.mkdirSync(shimDir, { recursive: true });
  fs.writeFileSync(openedUrlsFile, "");
  fs.writeFileSync(
    path.join(shimDir, "xdg-open"),
    `#!/bin/sh\n# Test shim: the desktop client opens its browser through xdg-open; record the URL for the test's browser.\nprintf '%s\\n' "$1" >> '${openedUrlsFile}'\nexit 0\n`,
    { mode: 0o755 },
  );
  return {
    display,
    busAddress,
    home,
    openedUrlsFile,
    shimDir,
    openedUrls: () => readIfExists(openedUrlsFile).split("\n").filter(Boolean),
  };
}

export interface ClientRun {
  process: Started;
  logFile: string;
  log(): string;
}

/** The two unmodified desktop clients the tests drive (Debian `owncloud-client`, `nextcloud-desktop`). */
export type DesktopClientKind = "owncloud" | "nextcloud";

export interface ClientOptions {
  /** Which client; the ownCloud one when absent. */
  kind?: DesktopClientKind;
  /** Extra command-line options (e.g. the Nextcloud client's `--overridelocaldir`). */
  extraArgs?: string[];
  serverUrl: string;
  /** Copy of /etc/ssl/certs with the test CA (see tls.ts). */
  trustDir: string;
  logFile: string;
  /** stdout/stderr of the launcher (unshare, mount). */
  outputFile: string;
}

/**
 * Starts the unmodified client in a private mount namespace where the test CA is trusted
 * (`unshare -m`, a bind mount over /etc/ssl/certs), in a clean environment.
 */
export function startClient(processes: ProcessSet, desktop: Desktop, options: ClientOptions): ClientRun {
  const tmp = path.join(desktop.home, "tmp");
  fs.mkdirSync(tmp, { recursive: true, mode: 0o700 });
  const env: NodeJS.ProcessEnv = {
    PATH: `${desktop.shimDir}:/usr/bin:/bin`,
    HOME: desktop.home,
    TMPDIR: tmp,
    XDG_RUNTIME_DIR: path.dirname(desktop.busAddress.replace(/^unix:path=/, "")),
    XDG_CONFIG_HOME: path.join(desktop.home, ".config"),
    XDG_CURRENT_DESKTOP: "keystream-test", // anything but xfce, which waits 30 s for a tray (§5)
    DISPLAY: desktop.display,
    DBUS_SESSION_BUS_ADDRESS: desktop.busAddress,
    QT_QPA_PLATFORM: "xcb",
    // The Nextcloud client's tray window is Qt Quick: render it without GLX (research nextcloud §6.6).
    QT_QUICK_BACKEND: "software",
    LANG: "C.UTF-8",
    // Every request and response (Authorization redacted by the client) in the client's own log.
    QT_LOGGING_RULES: "sync.httplogger=true",
  };
  const kind = options.kind ?? "owncloud";
  // Each client locks its server URL its own way: ownCloud by variable, Nextcloud by option (§6.1).
  if (kind === "owncloud") env.OWNCLOUD_OVERRIDE_SERVER_URL = options.serverUrl;
  const urlArgs = kind === "nextcloud" ? ["--overrideserverurl", options.serverUrl] : [];
  const asRoot = process.getuid?.() === 0;
  const unshareArgs = asRoot ? ["-m"] : ["-r", "-m"];
  const script = 'mount --bind "$0" /etc/ssl/certs && exec "$@"';
  const clientArgs = [
    `/usr/bin/${kind}`,
    "--logfile",
    options.logFile,
    "--logdebug",
    "--logflush",
    ...urlArgs,
    ...(options.extraArgs ?? []),
  ];
  const started = processes.start(
    kind,
    "/usr/bin/unshare",
    [...unshareArgs, "/bin/sh", "-c", script, options.trustDir, ...clientArgs],
    {
      env,
      logFile: options.outputFile,
    },
  );
  return { process: started, logFile: options.logFile, log: () => readIfExists(options.logFile) };
}

/** xdotool against the Xvfb display (no window manager: windowfocus, not windowactivate). */
export function xdotool(desktop: Desktop, args: string[]): string {
  return run("/usr/bin/xdotool", args, { env: { PATH: "/usr/bin:/bin", DISPLAY: desktop.display } });
}

export function findWindows(desktop: Desktop, name: string): string[] {
  try {
    return xdotool(desktop, ["search", "--name", name]).split("\n").filter(Boolean);
  } catch {
    return []; // xdotool exits 1 when nothing matches
  }
}

/** Presses Return in the ownCloud wizard (focus is on its Connect… button) until `done` says it worked. */
export async function pressWizardConnect(desktop: Desktop, done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("the wizard's Connect… button was pressed but the wizard did not finish");
    const windows = findWindows(desktop, "ownCloud Connection Wizard");
    for (const id of windows) {
      try {
        xdotool(desktop, ["windowfocus", "--sync", id, "key", "Return"]);
      } catch {
        // the window may have just closed
      }
    }
    await delay(2000);
  }
}
