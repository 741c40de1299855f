import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PermissionConfig } from "../../lib/permission";
import { CONFIG_PATH } from "../../lib/workspace/workspace-config";

/** A fresh workspace folder (real path), optionally with files; removed by the returned cleanup. */
export function makeWorkspace(files: Record<string, string> = {}): { ws: string; cleanup: () => void } {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-import-")));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  }
  return { ws, cleanup: () => fs.rmSync(ws, { recursive: true, force: true }) };
}

type Config = { permission?: PermissionConfig; agents?: Record<string, unknown> };

/** Writes the workspace's `.plangate/config.json`. */
export function writeConfig(ws: string, config: Config): void {
  fs.mkdirSync(path.join(ws, ".plangate"), { recursive: true });
  fs.writeFileSync(path.join(ws, CONFIG_PATH), JSON.stringify(config, null, 2));
}

/** A workspace whose `.plangate/config.json` holds exactly this config. */
export function workspaceWithConfig(config: Config): { ws: string; cleanup: () => void } {
  return makeWorkspace({ [CONFIG_PATH]: JSON.stringify(config, null, 2) });
}
