import assert from "node:assert/strict";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";

/**
 * The layer rules of .dependency-cruiser.cjs (docs/architecture.md), the configuration `npm run
 * check:deps` uses: each rule fires, under its name, on a deliberately wrong import in the fixture
 * tree, the right imports beside them pass, and the real src/ passes.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const configFile = path.join(root, ".dependency-cruiser.cjs");
const fixtures = path.join(root, "test/architecture/fixtures");

async function violationsIn(baseDir: string): Promise<IViolation[]> {
  const options = await extractDepcruiseOptions(configFile);
  const { output } = await cruise(["src"], { ...options, baseDir });
  return (output as ICruiseResult).summary.violations;
}

/** `rule: from → to`, the cycle's path for a circle; node_modules paths shortened to the package. */
function describeViolation(violation: IViolation): string {
  const to = violation.to.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+)\/.*$/, "$1");
  return `${violation.rule.name}: ${violation.from} → ${to}`;
}

describe("the dependency rules", () => {
  it("each rule fires, by name, on a wrong import, and only there", async () => {
    const found = (await violationsIn(fixtures)).map(describeViolation).sort();
    assert.deepEqual(found, [
      // A domain module naming the query builder (a type-only import).
      "domain-not-to-infrastructure-packages: src/accounts/query.ts → kysely",
      // A domain module importing storage.
      "domain-not-to-infrastructure: src/oauth/x.ts → src/storage/y.ts",
      // A circle is reported once, at the first of its modules.
      "no-circular: src/activity/a.ts → src/activity/b.ts",
      "not-to-unresolvable: src/jobs/missing.ts → ./nowhere.js",
      // A console controller importing another controller, a route file importing another route file.
      "route-not-to-route: src/http/console/controllers/profile.ts → src/http/console/controllers/settings.ts",
      "route-not-to-route: src/http/routes/account.ts → src/http/routes/sign-in.ts",
      // Storage importing a domain service; its imports of ports.ts and domain/ pass.
      "storage-only-to-ports-and-domain-values: src/storage/widget-store.ts → src/oauth/service.ts",
      // A shared statement importing a store; a store importing another domain's store and a start-up
      // step. Their imports of driver/, schema/, statements/ and a store of their own domain pass.
      "store-only-to-driver-schema-and-own-domain: src/storage/statements/widget-insert.ts → src/storage/stores/accounts/gadget-store.ts",
      "store-only-to-driver-schema-and-own-domain: src/storage/stores/oauth/widget-grant-store.ts → src/storage/lifecycle/start.ts",
      "store-only-to-driver-schema-and-own-domain: src/storage/stores/oauth/widget-grant-store.ts → src/storage/stores/accounts/gadget-store.ts",
      // A support module importing a domain folder.
      "support-not-to-product: src/config/settings.ts → src/accounts/users.ts",
    ]);
  });

  it("a circle is reported with its whole path", async () => {
    const circle = (await violationsIn(fixtures)).find((v) => v.rule.name === "no-circular" && v.from === "src/activity/a.ts");
    assert.deepEqual(
      circle?.cycle?.map((step) => step.name),
      ["src/activity/b.ts", "src/activity/a.ts"],
    );
  });

  it("every folder and top-level module of src/ belongs to a layer the rules name", () => {
    const require = createRequire(import.meta.url);
    const config = require(configFile) as {
      forbidden: { name: string; from: { path?: string | string[] }; to: { path?: string | string[] } }[];
    };
    const layerPatterns = config.forbidden
      .filter((rule) => rule.name !== "no-circular" && rule.name !== "not-to-unresolvable")
      .flatMap((rule) => [rule.from.path, rule.to.path])
      .flat()
      .filter((pattern): pattern is string => pattern?.startsWith("^src/") === true)
      .map((pattern) => new RegExp(pattern));
    const unplaced = fs
      .readdirSync(path.join(root, "src"), { withFileTypes: true })
      .map((entry) => (entry.isDirectory() ? `src/${entry.name}/any.ts` : `src/${entry.name}`))
      .filter((module) => !layerPatterns.some((pattern) => pattern.test(module)));
    assert.deepEqual(unplaced, [], "name each of these in .dependency-cruiser.cjs (DOMAIN_FOLDERS, SUPPORT_… or UPPER_…)");
  });

  it("the real src/ keeps every rule", async () => {
    const found = (await violationsIn(root)).map(describeViolation);
    assert.deepEqual(found, []);
  });
});
