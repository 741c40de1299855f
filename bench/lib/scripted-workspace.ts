import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { resetEnvCache } from "../../lib/env";
import { tempDb } from "./temp-db";

/**
 * A temp database and a workspace for scripted sessions, with the env pointing at them: the workspace is a
 * folder inside the allowed root (never the root itself) holding `small.txt` and, if given, a config file.
 */
export function scriptedWorkspace(name: string, opts: { env?: Record<string, string>; config?: string } = {}) {
  const t = tempDb(name);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `plangate-bench-${name}-ws-`));
  const root = path.join(dir, "ws");
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, "small.txt"), "hello\n".repeat(20));
  if (opts.config) {
    fs.mkdirSync(path.join(root, ".plangate"));
    fs.writeFileSync(path.join(root, ".plangate/config.json"), opts.config);
  }
  Object.assign(process.env, {
    DATABASE_URL: t.url,
    PLANGATE_ALLOW_SCRIPTED: "1",
    PLANGATE_WORKSPACE_ROOTS: dir,
    PLANGATE_DATA_DIR: dir,
    ...opts.env,
  });
  resetEnvCache();
  (globalThis as { plangateDb?: unknown }).plangateDb = t.db;
  return {
    t,
    root,
    dispose: async () => {
      await t.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
