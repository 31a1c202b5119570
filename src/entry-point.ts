import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";

/**
 * True when the module at `moduleUrl` (its `import.meta.url`) is the script Node was started with.
 * Node gives `import.meta.url` with symlinks resolved and the path percent-encoded (a space is
 * `%20`), while `process.argv[1]` keeps the path as typed: compare both in the same form, or a
 * symlinked install directory or a path with a space makes the entry point a silent no-op.
 */
export function isEntryPoint(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return pathToFileURL(realpathSync(script)).href === moduleUrl;
  } catch {
    return false;
  }
}
