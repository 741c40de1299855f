// Preloaded (NODE_OPTIONS=--require) into every process of a `npm run test:node24` run: better-sqlite3's addon is
// loaded from the build made for that Node (TEST_ON_NODE_SQLITE_ADDON), never by changing node_modules, which the
// checkout's own Node and its other runs go on using meanwhile.
const path = require("node:path");

const addon = process.env.TEST_ON_NODE_SQLITE_ADDON;
if (addon) {
  const suffix = path.join("better-sqlite3", "build", "Release", "better_sqlite3.node");
  const dlopen = process.dlopen;
  process.dlopen = function (module, filename, ...rest) {
    return dlopen.call(this, module, String(filename).endsWith(suffix) ? addon : filename, ...rest);
  };
}
