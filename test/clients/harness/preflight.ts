import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { DesktopClientKind } from "./desktop.js";
import { APP_ROOT } from "./keystream.js";

/** What the client test needs on the machine (test/clients/install.sh installs the packages). */
const REQUIRED_FILES: [file: string, from: string][] = [
  ["/usr/bin/Xvfb", "Debian package xvfb"],
  ["/usr/bin/xdotool", "Debian package xdotool"],
  ["/usr/bin/gnome-keyring-daemon", "Debian package gnome-keyring"],
  ["/usr/bin/dbus-daemon", "Debian package dbus"],
  ["/usr/bin/dbus-send", "Debian package dbus"],
  ["/usr/sbin/nginx", "Debian package nginx-light"],
  ["/usr/sbin/apache2", "Debian package apache2 (the file server)"],
  ["/usr/lib/apache2/modules/mod_dav_fs.so", "Debian package apache2"],
  ["/usr/bin/chromium", "Debian package chromium"],
  ["/usr/bin/openssl", "Debian package openssl"],
  ["/usr/bin/unshare", "Debian package util-linux"],
];

/** Each client's binary and the Debian package it comes from. */
const CLIENT_BINARIES = {
  owncloud: ["/usr/bin/owncloud", "Debian package owncloud-client"],
  nextcloud: ["/usr/bin/nextcloud", "Debian package nextcloud-desktop"],
} as const satisfies Record<DesktopClientKind, [string, string]>;

/** Each missing prerequisite of the test of `client`, with the reason; empty when the test can run. */
export function missingPrerequisites(client: DesktopClientKind): string[] {
  const missing: string[] = [];
  for (const [file, from] of [CLIENT_BINARIES[client], ...REQUIRED_FILES]) {
    if (!fs.existsSync(file)) missing.push(`${file} is missing (${from}; run test/clients/install.sh)`);
  }
  if (!fs.existsSync(path.join(APP_ROOT, "dist/main.js"))) missing.push("dist/main.js is missing (run npm run build)");
  if (!fs.existsSync(path.join(APP_ROOT, "node_modules/playwright-core")))
    missing.push("playwright-core is not installed (npm ci)");
  if (missing.length === 0) {
    // The client trusts the test CA through a private mount namespace: it needs mount rights there.
    const args = process.getuid?.() === 0 ? ["-m"] : ["-r", "-m"];
    const probe = spawnSync("/usr/bin/unshare", [...args, "/bin/sh", "-c", "mount --bind /etc/ssl/certs /etc/ssl/certs"], {
      encoding: "utf8",
      timeout: 10_000,
    });
    if (probe.status !== 0) {
      missing.push(
        `cannot bind-mount in a private mount namespace (unshare ${args.join(" ")}): ${(probe.stderr || probe.error?.message || "").trim()}`,
      );
    }
  }
  return missing;
}
