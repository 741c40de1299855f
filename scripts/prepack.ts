// `npm pack` (prepack): the package carries its production build and bundles, so `plangate serve` from an install
// serves at once (no build at first start, and an install has no build tools). Builds only what is stale. It also
// carries the lock file as npm-shrinkwrap.json (taken out again after packing), so an install gets the versions
// the tests ran with, overrides included.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildBundles, bundlesNeedBuild } from "./build-bundles";
import { needsBuild } from "./needs-build";
import { withBuildLock } from "./build-lock";
import { recordNextLinks } from "./next-links";

const root = path.resolve(import.meta.dirname, "..");
if (bundlesNeedBuild()) await buildBundles();
// Under the build lock: a server or test starting from this checkout meanwhile waits instead of building too.
withBuildLock(root, () => {
  if (!needsBuild(root)) return;
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const built = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
});
recordNextLinks();
fs.copyFileSync(path.join(root, "package-lock.json"), path.join(root, "npm-shrinkwrap.json"));
