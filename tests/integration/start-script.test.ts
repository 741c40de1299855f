import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { needsBuild } from "../../scripts/needs-build";

const root = path.resolve(import.meta.dirname, "../..");

describe("npm start guard rails", () => {
  it.each([
    [{ HOST: "0.0.0.0", PLANGATE_TOKEN: "" }, "Refusing to listen on 0.0.0.0 without PLANGATE_TOKEN"],
    [{ HOST: "192.168.1.20", PLANGATE_TOKEN: "" }, "Refusing to listen on 192.168.1.20 without PLANGATE_TOKEN"],
    [{ PORT: "70000" }, "PORT"],
  ])("refuses to start with %j and says why", (env, message) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-start-"));
    const result = spawnSync(process.execPath, ["scripts/serve.mjs"], {
      cwd: root,
      env: { ...process.env, PLANGATE_DATA_DIR: dataDir, DATABASE_URL: `file:${dataDir}/x.db`, ...env },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(message);
    // Refused before touching anything: no database was created.
    expect(fs.existsSync(path.join(dataDir, "x.db"))).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

describe("needsBuild", () => {
  it("is true without a build, false after one, true again when a source changes", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-build-"));
    fs.mkdirSync(path.join(dir, "app"));
    fs.writeFileSync(path.join(dir, "app", "page.tsx"), "x");
    expect(needsBuild(dir)).toBe(true);
    fs.mkdirSync(path.join(dir, ".next"));
    fs.writeFileSync(path.join(dir, ".next", "BUILD_ID"), "id");
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(dir, ".next", "BUILD_ID"), later, later);
    expect(needsBuild(dir)).toBe(false);
    const newer = new Date(Date.now() + 10_000);
    fs.utimesSync(path.join(dir, "app", "page.tsx"), newer, newer);
    expect(needsBuild(dir)).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
