/**
 * Where a WebDAV request lands in a user's files. The ownCloud client writes under
 * `/remote.php/webdav/<path>` (the authorized user's root), the Nextcloud client under
 * `/remote.php/dav/files/<user>/<path>`; both name the same storage, so both give the same
 * path relative to the user's root (docs/spec/activity-api.md, object_name: "the path relative to the user's root").
 */

const OWNCLOUD_ROOT = ["remote.php", "webdav"];
const NEXTCLOUD_ROOT = ["remote.php", "dav", "files"];

/**
 * The path, relative to `user`'s root and starting with `/`, that a request target names; or
 * undefined when it is not inside that user's root: another user's folder, another URL space
 * (uploads, trash bin), the root itself, or a path that cannot be decoded safely.
 *
 * `target` is a request target as sent (`/remote.php/webdav/a%20b.txt?x=1`) or an absolute URL
 * (the `Destination` header, RFC 4918 §10.3). Each segment is percent-decoded once (RFC 3986
 * §2.1); a segment that decodes to `.`/`..` or contains `/` or NUL is refused rather than
 * guessed at, so a decoded path can never climb out of the root it was checked against.
 */
export function pathInUserRoot(target: string, user: string): string | undefined {
  const segments = decodedSegments(requestPath(target));
  if (segments === undefined) return undefined;
  let relative: string[];
  if (startsWith(segments, OWNCLOUD_ROOT)) {
    relative = segments.slice(OWNCLOUD_ROOT.length);
  } else if (startsWith(segments, NEXTCLOUD_ROOT)) {
    if (segments[NEXTCLOUD_ROOT.length] !== user) return undefined;
    relative = segments.slice(NEXTCLOUD_ROOT.length + 1);
  } else {
    return undefined;
  }
  return relative.length === 0 ? undefined : `/${relative.join("/")}`;
}

/** The path of a request target or absolute URL, without query or fragment. */
function requestPath(target: string): string {
  let path = target;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (scheme) path = path.slice(scheme[0].length) || "/";
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

/** Non-empty segments, each decoded; undefined when one is malformed or unsafe once decoded. */
function decodedSegments(path: string): string[] | undefined {
  if (!path.startsWith("/")) return undefined;
  const decoded: string[] = [];
  for (const raw of path.split("/")) {
    if (raw === "") continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment === "." || segment === ".." || segment.includes("/") || segment.includes("\0")) return undefined;
    decoded.push(segment);
  }
  return decoded;
}

function startsWith(segments: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((part, i) => segments[i] === part);
}
