import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "../env";
import { databaseWhere, strandedDatabase } from "./database-location";

const dirs: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-location-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("where the database is", () => {
  it("names the file, or the server without its password", () => {
    expect(databaseWhere("file:./data/plangate.db", "/srv/app")).toBe("/srv/app/data/plangate.db");
    expect(databaseWhere("postgresql://u:secret@db:5432/p")).toBe("postgresql://db:5432/p");
  });

  it("finds an older ./data/plangate.db when PLANGATE_DATA_DIR is unset (the same place) and says nothing", () => {
    const cwd = tmp();
    fs.mkdirSync(path.join(cwd, "data"));
    fs.writeFileSync(path.join(cwd, "data", "plangate.db"), "");
    const env = parseEnv({}, cwd);
    expect(env.DATABASE_URL).toBe(`file:${path.join(cwd, "data", "plangate.db")}`);
    expect(strandedDatabase(env, cwd)).toBeNull();
  });

  it("names an older ./data/plangate.db left behind when PLANGATE_DATA_DIR moves elsewhere, until the new one exists", () => {
    const cwd = tmp();
    const elsewhere = tmp();
    fs.mkdirSync(path.join(cwd, "data"));
    fs.writeFileSync(path.join(cwd, "data", "plangate.db"), "");
    const env = parseEnv({ PLANGATE_DATA_DIR: elsewhere }, cwd);
    expect(env.DATABASE_URL).toBe(`file:${path.join(elsewhere, "plangate.db")}`);
    expect(strandedDatabase(env, cwd)).toBe(path.join(cwd, "data", "plangate.db"));
    fs.writeFileSync(path.join(elsewhere, "plangate.db"), "");
    expect(strandedDatabase(env, cwd)).toBeNull();
    // A second install inside ./data (as the browser tests' ./data/e2e) is not the first one moved.
    expect(strandedDatabase(parseEnv({ PLANGATE_DATA_DIR: "./data/e2e" }, cwd), cwd)).toBeNull();
    // DATABASE_URL set: the operator chose; nothing is second-guessed.
    expect(strandedDatabase(parseEnv({ PLANGATE_DATA_DIR: tmp(), DATABASE_URL: "file:/x.db" }, cwd), cwd)).toBeNull();
  });
});
