// `npm pack` (prepack): the package carries its production build and bundles, so `plangate serve` from an install
// serves at once (no build at first start, and an install has no build tools). Builds only what is stale. It also
// carries the lock file as npm-shrinkwrap.json (taken out again after packing), so an install gets the versions
// the tests ran with (all but the package's own overrides, which npm applies only to a project's root: the
// SQLite adapter gets the better-sqlite3 it asks for, beside the one Plangate uses).
import fs from "node:fs";
import path from "node:path";
import { buildBundles, bundlesNeedBuild } from "./build-bundles";
import { buildWhenStale } from "./needs-build";
import { recordNextLinks } from "./next-links";

const root = path.resolve(import.meta.dirname, "..");
if (bundlesNeedBuild()) await buildBundles();
const failed = buildWhenStale(root, true);
if (failed) {
  console.error(`plangate: ${failed}`);
  process.exit(1);
}
recordNextLinks();
fs.copyFileSync(path.join(root, "package-lock.json"), path.join(root, "npm-shrinkwrap.json"));
