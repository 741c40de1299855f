import { describe, expect, it } from "vitest";
import { compileGlob } from "./glob-match";

describe("compileGlob", () => {
  it.each([
    ["*.ts", "a.ts", true],
    ["*.ts", "src/deep/a.ts", true], // no slash: matches the name at any depth
    ["*.ts", "a.tsx", false],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/x/a.ts", false],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/x/y/a.ts", true],
    ["src/**/*.ts", "lib/a.ts", false],
    ["**/*.md", "README.md", true],
    ["**/*.md", "docs/a/b.md", true],
    ["src/**", "src/a/b/c", true],
    ["**", "anything/at/all", true],
    ["a?c.txt", "abc.txt", true],
    ["a?c.txt", "a/c.txt", false],
    ["*.{ts,tsx}", "x/a.tsx", true],
    ["*.{ts,tsx}", "a.js", false],
    ["src/{a,b/{c,d}}.ts", "src/b/d.ts", true],
    ["src/{a,b/{c,d}}.ts", "src/b/e.ts", false],
    ["file[0-9].txt", "file7.txt", true],
    ["file[0-9].txt", "filex.txt", false],
    ["file[!0-9].txt", "filex.txt", true],
    ["file[!0-9].txt", "file1.txt", false],
    ["a[!b]c/x", "a/c/x", false],
    ["[abc].js", "b.js", true],
    ["file.(x)+", "file.(x)+", true], // regex characters are literal
    ["file.(x)+", "file.xx", false],
    ["a\\*b", "a*b", true],
    ["a\\*b", "axb", false],
    ["{oops", "{oops", true], // an unclosed brace is literal
    ["[oops", "[oops", true],
    ["./src/*.ts", "src/a.ts", true],
  ])("%s against %s → %s", (glob, file, expected) => {
    expect(compileGlob(glob)(file)).toBe(expected);
  });
});
