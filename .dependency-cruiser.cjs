/**
 * The layers of docs/architecture.md, checked on every `npm test` (`npm run check:deps`).
 * test/architecture/dependency-rules.test.ts shows each rule firing on a deliberately wrong import.
 *
 * Paths are relative to the directory depcruise runs in (the repository root), and every layer is
 * named once, below: a new domain folder is added to DOMAIN_FOLDERS, a new support module to
 * SUPPORT_FOLDERS or SUPPORT_FILES.
 */

/** Domain folders: the rules of the product, written against their own ports. */
const DOMAIN_FOLDERS = [
  "accounts",
  "oauth",
  "oidc",
  "activity",
  "login-flow",
  "security",
  "jobs",
  "second-factor",
  "push",
  "notifications",
  "groups",
  "audit",
];
/** Support: what any layer may use, depending on nothing of the product. */
const SUPPORT_FOLDERS = ["crypto", "collections", "config", "i18n", "observability"];
const SUPPORT_FILES = ["clock.ts", "product.ts", "entry-point.ts", "start-up-memory.ts", "refusal.ts"];
/**
 * What sits above the domain: storage (the ports' implementations), the HTTP and CLI front ends,
 * the composition root (services.ts, wiring/) and the server's bootstrapping files.
 */
const UPPER_FOLDERS = ["storage", "http", "cli", "wiring"];
const UPPER_FILES = ["services.ts", "app.ts", "server.ts", "main.ts"];
/** Packages that tie code to a database or to the HTTP server; only storage, http and the root use them. */
const INFRASTRUCTURE_PACKAGES = ["kysely", "pg", "better-sqlite3", "fastify", "@fastify/[^/]+", "prom-client"];

/**
 * Route files: the protocol surface (http/routes/) and the console's controllers. Each stands alone;
 * what two of them share (a path, a form's field names) lives in a module beside them.
 */
const ROUTE_FILES = "^src/http/(routes|console/controllers)/";

const escape = (name) => name.replace(/[.]/g, "\\.");
const folders = (names) => `^src/(${names.join("|")})/`;
const files = (names) => `^src/(${names.map(escape).join("|")})$`;

const domain = folders(DOMAIN_FOLDERS);
const support = [folders(SUPPORT_FOLDERS), files(SUPPORT_FILES)];
const upper = [folders(UPPER_FOLDERS), files(UPPER_FILES)];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "Modules of src/ import each other in one direction only: a circle makes load order decide " +
        "which side sees an undefined binding, and ties two modules so neither can change alone.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "domain-not-to-infrastructure",
      comment:
        "A domain folder states what it needs from storage in its own ports.ts and gets the " +
        "implementation from the composition root; it never reaches into storage/, the HTTP or CLI " +
        "front ends, or the composition root itself (services.ts, wiring/, the server's bootstrapping).",
      severity: "error",
      from: { path: domain },
      to: { path: upper },
    },
    {
      name: "domain-not-to-infrastructure-packages",
      comment:
        "A domain folder stays free of the database drivers, the query builder, the HTTP server and " +
        "the metrics registry, so its rules run (and are tested) without any of them; type-only " +
        "imports count, because a Kysely or Fastify type in a domain signature is the same coupling.",
      severity: "error",
      from: { path: domain },
      // A package resolves into node_modules/<name>/, or to its typings in node_modules/@types/<name>/.
      to: { path: `(^|/)node_modules/(@types/)?(${INFRASTRUCTURE_PACKAGES.join("|")})/` },
    },
    {
      name: "support-not-to-product",
      comment:
        "Support modules (crypto, config, i18n, observability, the clock, the product name, the " +
        "entry-point test) may be imported by every layer, so they import none: no domain folder, " +
        "no storage, no HTTP or CLI, no composition root.",
      severity: "error",
      from: { path: support },
      to: { path: [domain, ...upper] },
    },
    {
      name: "storage-only-to-ports-and-domain-values",
      comment:
        "Storage implements the ports a domain declares: from a domain folder it may import only " +
        "<domain>/ports.ts and the pure values and rules under <domain>/domain/, never a domain " +
        "service, so the services depend on storage through their ports and not the reverse.",
      severity: "error",
      from: { path: "^src/storage/" },
      to: {
        path: domain,
        pathNot: `^src/(${DOMAIN_FOLDERS.join("|")})/(ports\\.ts$|domain/)`,
      },
    },
    {
      name: "store-only-to-driver-schema-and-own-domain",
      comment:
        "Inside storage/ the layers are driver/ (connections, prepared statements), schema/ (tables and " +
        "their row mappings) and stores/<domain>/ (one domain's ports implemented): a store imports " +
        "only driver/, schema/, statements/ (statements the stores of several domains run) and the " +
        "stores of its own domain, so no domain's store becomes another's; statements/ imports only " +
        "driver/, schema/ and statements/.",
      severity: "error",
      from: { path: "^src/storage/(stores/[^/]+|statements)/" },
      to: { path: "^src/storage/", pathNot: "^src/storage/(driver|schema|statements|$1)/" },
    },
    {
      name: "route-not-to-route",
      comment:
        "A route file (http/routes/, http/console/controllers/) parses, calls a service and answers; " +
        "it never imports another route file, so no route file becomes the framework of others. " +
        "Shared pages go in http/pages/ or http/console/views/, shared paths in a module of their own.",
      severity: "error",
      from: { path: ROUTE_FILES },
      to: { path: ROUTE_FILES },
    },
    {
      name: "not-to-unresolvable",
      comment:
        "An import the check cannot resolve is one no rule can judge: every relative import of src/ " +
        "must name a file that exists (the .js of a .ts source resolves to the .ts).",
      severity: "error",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Type-only imports are dependencies too: a port that names a storage type couples the layers.
    tsPreCompilationDeps: true,
    // Resolve package names through their package.json "exports" as Node does (ESM, "import").
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
