// Layers point down: edge (routes, pages, components, CLI, scripts) → agent (with model) → tools and external →
// plan/team/verify/webhooks/notify (with sandbox, workspace, config) → session → data (lib/db) → pure. The pure layer
// lives beside the concern it serves: a domain folder's rules/ (who may, what is allowed), views/ (what a page
// shows, from plain data) and the session's log/ (the events and their fold), with lib/permission. Any layer may
// import them and they import only each other. `npm test` runs this first (npm run check:layers).
// Named one by one: a folder is pure because it is listed here (and then checked), never by its name alone.
const PURE_FOLDERS = `^lib/(${[
  "session/log",
  "auth/rules",
  "review/rules",
  "external/rules",
  "model/rules",
  "notify/rules",
  "auth/views",
  "desk/views",
  "plan/views",
  "session/views",
  "team/views",
  "ui/views",
  "verify/views",
  "webhooks/views",
  "workspace/views",
].join("|")})/`;
// What pure code may import besides the pure layer: the plain parts of Node and three libraries of plain functions.
const PURE_MAY_IMPORT = "^(node:)?(path|crypto)$|^node_modules/(zod|diff|picomatch)/";
const PURE_TARGETS = `^lib/permission/|${PURE_FOLDERS}|^lib/(id|errors|vocabulary)\\.ts$|${PURE_MAY_IMPORT}`;
const HOME_DEFAULT = "^lib/permission/(config|agents)\\.ts$";
const CORE = `^lib/permission/|${PURE_FOLDERS}|^lib/(id|errors|vocabulary|env|retry)\\.ts$`;
const DATA = "^lib/db/";
const SESSION = "^lib/session/";
const DOMAIN = "^lib/(plan|review|team|desk|verify|webhooks|notify|sandbox|workspace|config|auth)/";
// The review's pure files: plain functions over plain data, which the card may import too.
const REVIEW_PURE =
  "review-types|parse-decision|check-decider|weigh-policy|pick-approval-mode|anchor-threads|write-agent-message|decide-review|close-decision|close-elsewhere|approval-mode-events|card-keys";
const TOOLS = "^lib/(tools|external)/";
const AGENT = "^lib/(agent|model)/";
const EDGE = "^(app|components|bin|cli|scripts|lib/http)/";

const above = (...layers) => ({ path: layers.join("|") });
// A pure folder sits in the bottom layer wherever its parent folder sits.
const down = (name, from, ...higher) => ({
  name,
  severity: "error",
  comment: `${name}: a layer imports only the layers below it`,
  from: { path: from, pathNot: from === CORE ? "\\.test\\.tsx?$" : `\\.test\\.tsx?$|${PURE_FOLDERS}` },
  to: { ...above(...higher), pathNot: PURE_FOLDERS },
});

module.exports = {
  forbidden: [
    down("core-is-the-bottom", CORE, DATA, SESSION, DOMAIN, TOOLS, AGENT, EDGE),
    down("data-below-session", DATA, SESSION, DOMAIN, TOOLS, AGENT, EDGE),
    down("session-below-domain", SESSION, DOMAIN, TOOLS, AGENT, EDGE),
    down("domain-below-tools", DOMAIN, TOOLS, AGENT, EDGE),
    down("tools-below-agent", TOOLS, AGENT, EDGE),
    down("agent-below-edge", AGENT, EDGE),
    {
      name: "pure-folders-are-pure",
      severity: "error",
      comment:
        "lib/permission and the listed rules/, views/ and log/ folders are plain functions over plain data: they import the pure layer, path, crypto, zod, diff and picomatch, nothing else",
      from: { path: `^lib/permission/|${PURE_FOLDERS}`, pathNot: `\\.test\\.ts$|${HOME_DEFAULT}` },
      to: { pathNot: PURE_TARGETS },
    },
    {
      name: "pure-reads-only-the-home-folder",
      severity: "error",
      comment:
        "two permission files take os.homedir() as the default for `~` when the caller names no home; nothing else",
      from: { path: HOME_DEFAULT },
      to: { pathNot: `${PURE_TARGETS}|^(node:)?os$` },
    },
    {
      name: "review-rules-are-pure",
      severity: "error",
      comment:
        "the review's rules (who may decide, the policy's words, the mode, decide()) are plain functions: no I/O",
      from: { path: `^lib/review/(${REVIEW_PURE})\\.ts$` },
      to: {
        pathNot: `^lib/permission/|${PURE_FOLDERS}|^lib/(id|errors|vocabulary)\\.ts$|^lib/review/(${REVIEW_PURE})\\.ts$|^node_modules/(zod|picomatch)/`,
      },
    },
    {
      name: "review-rows-have-one-home",
      severity: "error",
      comment: "a plan review's rows are written and read through lib/review (questions: lib/tools/question.ts)",
      from: {
        pathNot:
          "^lib/(review|db)/|^lib/tools/question\\.ts$|^lib/agent/answer-review\\.ts$|^lib/auth/authorise\\.ts$|^lib/plan/policy-held\\.ts$|\\.test\\.tsx?$",
      },
      to: { path: "^lib/db/plans/(approvals|comments|close-review|policies)\\.ts$" },
    },
    {
      name: "only-lib-db-speaks-sql",
      severity: "error",
      comment: "the query builder and the drivers are the data layer's: domain code calls lib/db modules",
      from: { pathNot: "^lib/db/|^scripts/|^tests/|\\.test\\.tsx?$|^bench/|^prisma" },
      to: { path: "node_modules/(kysely|pg|better-sqlite3|@prisma/adapter-[^/]+|@prisma/driver-adapter-utils)/" },
    },
    {
      name: "components-never-reach-the-database",
      severity: "error",
      comment: "a client component that imports (even a type from) a module reaching lib/db pulls it into the browser",
      from: { path: "^components/" },
      to: { path: DATA, reachable: true },
    },
    {
      name: "the-cli-never-reaches-the-database",
      severity: "error",
      comment: "plangate's CLI talks to the server over HTTP; it runs outside Next, where server-only modules throw",
      from: { path: "^(cli|bin)/" },
      to: { path: DATA, reachable: true },
    },
    { name: "no-circular", severity: "error", from: { path: "^lib/" }, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^lib/db/generated|^\\.next" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
