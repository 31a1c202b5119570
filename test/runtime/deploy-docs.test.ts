import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { REPO_ROOT } from "../support/occ.js";

/**
 * The proxy and file-server files in deploy/ are what `npm run test:clients` runs (test/clients/harness/)
 * and what docs/deployment.md shows operators: the document must quote each one as it is, so the
 * two cannot drift apart.
 */
const DEPLOY_FILES = [
  "deploy/nginx/keystream-maps.conf",
  "deploy/nginx/keystream-locations.conf",
  "deploy/nginx/keystream-proxy-headers.conf",
  "deploy/nginx/keystream-files-log.conf",
  "deploy/apache2/keystream-files.conf",
];

/** The contents of every fenced code block in a Markdown text. */
function codeBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const fence = /^```[a-z]*\n([\s\S]*?)^```$/gm;
  for (let match = fence.exec(markdown); match; match = fence.exec(markdown)) blocks.push(match[1] ?? "");
  return blocks;
}

describe("docs/deployment.md and deploy/", () => {
  const blocks = codeBlocks(fs.readFileSync(path.join(REPO_ROOT, "docs/deployment.md"), "utf8"));
  for (const file of DEPLOY_FILES) {
    it(`docs/deployment.md quotes ${file} as it is`, () => {
      const text = fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
      assert.ok(blocks.includes(text), `no code block in docs/deployment.md equals ${file}`);
    });
  }

  it("the file server's named location sets the user headers exactly as keystream-protect.conf does", () => {
    const headersOf = (text: string) =>
      text
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => /^proxy_set_header (X-Keystream-|Authorization )/.test(line))
        .sort();
    const protect = headersOf(fs.readFileSync(path.join(REPO_ROOT, "deploy/nginx/keystream-protect.conf"), "utf8"));
    const locations = fs.readFileSync(path.join(REPO_ROOT, "deploy/nginx/keystream-locations.conf"), "utf8");
    const named = /location @keystream_files \{([\s\S]*?)\n\}/.exec(locations)?.[1] ?? "";
    assert.ok(protect.length >= 3, "keystream-protect.conf sets the user headers");
    assert.deepEqual(headersOf(named), protect);
  });
});
