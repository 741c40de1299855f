import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensurePrivateFile, makePrivateDir, tightenDataFolder } from "./private-files";

const octal = (p: string) => `0${(fs.statSync(p).mode & 0o777).toString(8)}`;
let tmp = "";
let umask = 0;
beforeEach(() => {
  umask = process.umask(0o022);
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-private-")));
});
afterEach(() => {
  process.umask(umask);
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the data folder for its owner only, under umask 022", () => {
  it("makes folders 0700 and a database file 0600, and tightens a looser existing one", () => {
    makePrivateDir(path.join(tmp, "a", "b"));
    expect([octal(path.join(tmp, "a")), octal(path.join(tmp, "a", "b"))]).toEqual(["0700", "0700"]);
    ensurePrivateFile(path.join(tmp, "a", "x.db"));
    expect(octal(path.join(tmp, "a", "x.db"))).toBe("0600");
    fs.writeFileSync(path.join(tmp, "old.db"), "x", { mode: 0o644 });
    ensurePrivateFile(path.join(tmp, "old.db"));
    expect(octal(path.join(tmp, "old.db"))).toBe("0600");
    expect(fs.readFileSync(path.join(tmp, "old.db"), "utf8")).toBe("x");
  });

  it("tightens the folder, what is directly in it and the quarantine; keeps the roots and never follows a link", () => {
    const data = path.join(tmp, "data");
    const person = path.join(tmp, "project.md");
    fs.writeFileSync(person, "mine", { mode: 0o644 });
    fs.mkdirSync(path.join(data, "workspaces", "p"), { recursive: true });
    fs.writeFileSync(path.join(data, "workspaces", "p", "a.md"), "x");
    fs.mkdirSync(path.join(data, "quarantine", "t"), { recursive: true });
    fs.writeFileSync(path.join(data, "quarantine", "t", "f"), "x");
    fs.writeFileSync(path.join(data, "auth-secret"), "s");
    fs.symlinkSync(person, path.join(data, "link"));
    fs.symlinkSync(person, path.join(data, "quarantine", "t", "link"));
    const elsewhere = path.join(tmp, "db", "x.db");
    fs.mkdirSync(path.dirname(elsewhere));
    fs.writeFileSync(elsewhere, "");
    fs.writeFileSync(`${elsewhere}-wal`, "");
    const changed = tightenDataFolder(data, { sqliteFile: elsewhere, keep: [path.join(data, "workspaces")] });
    expect(changed).toEqual([
      `${data} (0755 → 0700)`,
      "auth-secret (0644 → 0600)",
      "quarantine (0755 → 0700)",
      "quarantine/t (0755 → 0700)",
      "quarantine/t/f (0644 → 0600)",
      `${elsewhere} (0644 → 0600)`,
      `${elsewhere}-wal (0644 → 0600)`,
    ]);
    expect(octal(person)).toBe("0644");
    expect(octal(path.join(data, "workspaces"))).toBe("0755");
    expect(octal(path.join(data, "workspaces", "p", "a.md"))).toBe("0644");
    expect(octal(path.dirname(elsewhere))).toBe("0755");
    expect(tightenDataFolder(data, { sqliteFile: elsewhere, keep: [] })).toEqual(["workspaces (0755 → 0700)"]);
  });

  it("a data folder reached through a link is tightened where it leads", () => {
    fs.mkdirSync(path.join(tmp, "real"));
    fs.symlinkSync(path.join(tmp, "real"), path.join(tmp, "data"));
    expect(tightenDataFolder(path.join(tmp, "data"), { sqliteFile: null, keep: [] })).toEqual([
      `${path.join(tmp, "data")} (0755 → 0700)`,
    ]);
    expect(octal(path.join(tmp, "real"))).toBe("0700");
  });
});
