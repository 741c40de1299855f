import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hiddenServerFiles } from "./server-files";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-srv-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const file = (rel: string, text = "x") => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
  return path.join(root, rel);
};

describe("hiddenServerFiles", () => {
  const checkout = path.join(root, "opt/plangate");
  file("opt/plangate/package.json");
  file("opt/plangate/.env");
  file("opt/plangate/.env.local");
  fs.mkdirSync(path.join(checkout, ".env.d"));
  const db = file("opt/plangate/data/plangate.db");
  file("opt/plangate/data/plangate.db-wal");
  const workspace = path.join(checkout, "data/workspaces/app");
  fs.mkdirSync(workspace, { recursive: true });
  const places = { dataDir: path.join(checkout, "data"), databaseUrl: `file:${db}`, checkout };

  it("hides nothing that nothing shows", () => {
    expect(hiddenServerFiles(places, workspace, [workspace, "/usr"])).toEqual([]);
  });

  it("when a shown folder holds the checkout: its .env files (not folders), and the data folder before the workspace inside it", () => {
    const hidden = hiddenServerFiles(places, workspace, [path.join(root, "opt"), workspace]);
    expect(hidden).toEqual([
      { path: path.join(checkout, "data"), dir: true, beforeWorkspace: true },
      { path: path.join(checkout, ".env"), dir: false, beforeWorkspace: false },
      { path: path.join(checkout, ".env.local"), dir: false, beforeWorkspace: false },
    ]);
  });

  it("when the workspace holds the data folder: the folder, and the database even though the workspace shows it", () => {
    const outsideDb = file("elsewhere/db/plangate.db");
    const mine = {
      dataDir: path.join(root, "proj/.plangate-data"),
      databaseUrl: `file:${outsideDb}`,
      checkout: path.join(root, "proj"),
    };
    file("proj/.plangate-data/x");
    file("proj/.env.production");
    const ws = path.join(root, "proj");
    expect(hiddenServerFiles(mine, ws, [ws, path.dirname(outsideDb)])).toEqual([
      { path: path.join(root, "proj/.plangate-data"), dir: true, beforeWorkspace: false },
      { path: outsideDb, dir: false, beforeWorkspace: false },
      { path: path.join(root, "proj/.env.production"), dir: false, beforeWorkspace: false },
    ]);
  });
});
