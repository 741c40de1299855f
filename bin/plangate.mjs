#!/usr/bin/env node
// `plangate <command>` from a checkout: runs the bundled CLI (dist/cli/plangate.mjs, one file with no dependency,
// built by `npm install` and `npm start` from cli/; scripts/build-bundles.ts), so a hook starts as fast as node does.
import fs from "node:fs";

const bundle = new URL("../dist/cli/plangate.mjs", import.meta.url);
if (fs.existsSync(bundle)) await import(bundle.href);
else {
  console.error(
    "plangate: the CLI is not built yet: run npm install (or npx tsx scripts/build-bundles.ts) in the checkout",
  );
  process.exitCode = 1;
}
