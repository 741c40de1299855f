import { describe, expect, it } from "vitest";
import { matchWildcard } from "../permission";
import { translateClaudePath, type PathContext } from "./translate-claude-path";

const ctx: PathContext = { workspace: "/home/ann/proj", home: "/home/ann", settingsRoot: "/home/ann/proj" };

/**
 * Reference for Claude Code's side, written from the gitignore rules and sharing no code with the translation:
 * `*` and `?` stay inside one folder, `**` crosses folders, a pattern without an inner "/" matches at any depth,
 * a leading "/" anchors it, and a match on a folder covers everything below it.
 */
function gitignoreMatch(spec: string, path: string): boolean {
  let p = spec.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
  const anchored = p.startsWith("/") || p.includes("/");
  p = p.replace(/^\/+/, "");
  let re = "";
  for (let i = 0; i < p.length; ) {
    const atStart = i === 0 || p[i - 1] === "/";
    if (atStart && p.startsWith("**/", i)) (re += "(?:.*/)?"), (i += 3);
    else if (atStart && p.startsWith("**", i) && i + 2 === p.length) (re += ".*"), (i += 2);
    else if (p[i] === "*") (re += "[^/]*"), i++;
    else if (p[i] === "?") (re += "[^/]"), i++;
    else (re += p[i]!.replace(/[.+^${}()|[\]\\]/g, "\\$&")), i++;
  }
  const regex = new RegExp(anchored ? `^${re}$` : `^(?:.*/)?${re}$`);
  const parts = path.split("/");
  return parts.some((_, n) => regex.test(parts.slice(0, n + 1).join("/")));
}

const PATHS = [
  ".env",
  "a/.env",
  "a/b/.env",
  ".env.local",
  "x.env",
  "a/x.env",
  "x.env.d/y",
  "a/.env/z",
  "src",
  "src.ts",
  "srcx/a.ts",
  "src/a.ts",
  "src/a.js",
  "src/a/b.ts",
  "src/a/b/c.ts",
  "lib/src/a.ts",
  "src/a/index.ts",
  "src/a/b/index.ts",
  "docs/foo.md",
  "docs/foobar/x",
  "docs/a/foo",
  "docs/fo",
  "secrets",
  "secrets/k",
  "a/secrets/k",
  "a/secrets",
  "a/b",
  "a/x/b",
  "a/x/y/b",
  "a/b/c",
  "a/xb",
  "a.ts/b",
  "README.md",
];

const plangateMatch = (patterns: readonly string[], path: string) => patterns.some((p) => matchWildcard(p, path));

describe("translateClaudePath: gitignore patterns as Plangate wildcards", () => {
  it.each([
    ["./.env"],
    [".env"],
    ["*.env"],
    ["*.env*"],
    ["src/**"],
    ["/src/**/*.ts"],
    ["src/**/*.ts"],
    ["src/*"],
    ["docs/foo*"],
    ["**/secrets/**"],
    ["secrets/"],
    ["secrets"],
    ["a/**/b"],
    ["**"],
    ["*"],
    ["./**"],
    ["src/a.ts"],
  ])("%s matches exactly the same workspace paths as in Claude Code", (spec) => {
    const t = translateClaudePath(spec, ctx);
    if (!t.ok) throw new Error(t.reason);
    expect(t.broader).toBe(false);
    for (const path of PATHS)
      expect([path, plangateMatch(t.patterns, path)]).toEqual([path, gitignoreMatch(spec, path)]);
  });

  it.each([["src/*.ts"], ["src/*/index.ts"], ["a?b"], ["**/a/*.ts"], ["*a*b"]])(
    "%s is flagged broader: it matches all Claude Code does and more",
    (spec) => {
      const t = translateClaudePath(spec, ctx);
      if (!t.ok) throw new Error(t.reason);
      expect(t.broader).toBe(true);
      for (const path of PATHS)
        if (gitignoreMatch(spec, path)) expect([path, plangateMatch(t.patterns, path)]).toEqual([path, true]);
    },
  );

  it.each<[string, string[], boolean]>([
    ["//home/ann/proj/src/**", ["src/*"], false],
    ["~/proj/secrets/**", ["secrets/*"], false],
    ["//etc/passwd", ["/etc/passwd", "/etc/passwd/*"], true],
    ["~/.ssh/**", ["~/.ssh/*"], true],
    ["//tmp/build/", ["/tmp/build", "/tmp/build/*"], true],
  ])("%s is placed where Plangate names that path (%j)", (spec, patterns, outside) => {
    expect(translateClaudePath(spec, ctx)).toEqual({ ok: true, patterns, broader: false, outside });
  });

  it("roots a single leading / at the folder holding .claude/ (home for the user's settings)", () => {
    expect(translateClaudePath("/notes/**", { ...ctx, settingsRoot: "/home/ann" })).toMatchObject({
      ok: true,
      patterns: ["~/notes/*"],
    });
    expect(translateClaudePath("/notes/**", ctx)).toMatchObject({ ok: true, patterns: ["notes/*"] });
  });

  it.each([
    ["src/[ab].ts", "character classes"],
    ["!src/keep.ts", "negation"],
    ["../other/**", ".."],
    ["//home/*/proj/**", "reach into the workspace"],
    ["//home/ann", "reach into the workspace"],
  ])("%s cannot be translated (%s)", (spec, reason) => {
    const t = translateClaudePath(spec, ctx);
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.reason).toContain(reason);
  });
});
