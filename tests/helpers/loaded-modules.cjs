// Preloaded into a test's server (NODE_OPTIONS=--require): on SIGUSR2 it writes the files Node has loaded (Next's
// server chunks are required, so they are all there) to LOADED_MODULES_FILE, for a test to see what an idle
// server holds.
const fs = require("node:fs");

const out = process.env.LOADED_MODULES_FILE;
if (out) {
  process.on("SIGUSR2", () => {
    const tmp = `${out}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(Object.keys(require.cache)));
    fs.renameSync(tmp, out);
  });
}
