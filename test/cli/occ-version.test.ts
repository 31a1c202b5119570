import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { keystreamCommit } from "../../src/product.js";

const A = "0123456789abcdef0123456789abcdef01234567";
const B = "89abcdef0123456789abcdef0123456789abcdef";

/** The commit `--version` and `status` name, read from the files git keeps (gitrepository-layout(5)). */
describe("the commit of the application root", () => {
  const roots: string[] = [];
  after(() => {
    for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
  });
  /** An application root with these files (paths relative to it). */
  const rootWith = (files: Record<string, string>) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-git-"));
    roots.push(root);
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      fs.writeFileSync(path.join(root, name), content);
    }
    return root;
  };

  it("a branch checked out: its loose ref, else its line in packed-refs", () => {
    assert.equal(keystreamCommit(rootWith({ ".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": `${A}\n` })), A);
    const packed = rootWith({
      ".git/HEAD": "ref: refs/heads/main\n",
      ".git/packed-refs": `# pack-refs with: peeled fully-peeled sorted\n${B} refs/heads/other\n${A} refs/heads/main\n`,
    });
    assert.equal(keystreamCommit(packed), A);
  });

  it("a detached HEAD (a tag checked out): the commit in HEAD", () => {
    assert.equal(keystreamCommit(rootWith({ ".git/HEAD": `${B}\n` })), B);
  });

  it("a linked worktree: .git names its git directory, whose commondir holds the refs", () => {
    const common = rootWith({
      "refs/heads/wt/x": `${B}\n`,
      "worktrees/x/HEAD": "ref: refs/heads/wt/x\n",
      "worktrees/x/commondir": "../..\n",
    });
    const root = rootWith({ ".git": `gitdir: ${path.join(common, "worktrees", "x")}\n` });
    assert.equal(keystreamCommit(root), B);
  });

  it("a copy without .git, or a ref that names nothing: not known", () => {
    assert.equal(keystreamCommit(rootWith({ "package.json": "{}" })), undefined);
    assert.equal(keystreamCommit(rootWith({ ".git/HEAD": "ref: refs/heads/gone\n" })), undefined);
    assert.equal(
      keystreamCommit(rootWith({ ".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": "garbage\n" })),
      undefined,
    );
  });
});
