// Runs the real `kilo serve` (Kilo CLI, an OpenCode descendant) against a fake OpenAI-compatible API and drives it
// over its HTTP API, as run-opencode.ts does OpenCode: `kilo run` takes plan_exit away, a served session keeps it.
//
// Kilo npm-installs @kilocode/plugin into a config folder that holds a plugin before the project is ready; offline
// that takes about 75 s of retries. It looks only at package.json, package-lock.json and node_modules (measured with
// 7.7.7): a lock that already names the package says there is nothing to install, so the suite writes that, and
// Plangate's plugin, which imports nothing, loads at once.
import fs from "node:fs";
import path from "node:path";
import { opencodeConfig, startServe, type OpencodeServer, type ServeFlavour, type StartOptions } from "./run-opencode";

const PLUGIN_DEP = { "@kilocode/plugin": "7.3.1" };

const KILO_FLAVOUR: ServeFlavour = {
  name: "kilo",
  listening: /kilo server listening on (http:\/\/[^\s]+)/,
  setup: ({ modelBaseUrl, env }) => {
    const dir = path.join(env.XDG_CONFIG_HOME as string, "kilo");
    fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
    fs.writeFileSync(
      path.join(dir, "kilo.json"),
      JSON.stringify(opencodeConfig(modelBaseUrl, "https://app.kilo.ai/config.json"), null, 2),
    );
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ dependencies: PLUGIN_DEP }));
    fs.writeFileSync(
      path.join(dir, "package-lock.json"),
      JSON.stringify({ lockfileVersion: 3, packages: { "": { dependencies: PLUGIN_DEP } } }),
    );
  },
  env: () => ({
    KILO_DISABLE_MODELS_FETCH: "1",
    KILO_DISABLE_AUTOUPDATE: "1",
    KILO_TELEMETRY_LEVEL: "off",
    // What Kilo's own terminal client sets: it asks "Ready to implement?" after plan_exit for these clients.
    KILO_CLIENT: "cli",
  }),
};

export const startKilo = (opts: StartOptions): Promise<OpencodeServer> => startServe(opts, KILO_FLAVOUR);
