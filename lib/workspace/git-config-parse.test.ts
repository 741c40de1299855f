import { describe, expect, it } from "vitest";
import { parseGitConfig } from "./git-config-parse";

const one = (text: string) => parseGitConfig(text).map((e) => [e.section, e.subsection, e.name, e.value]);

describe("parseGitConfig", () => {
  it.each<[string, string, (string | null)[][]]>([
    ["plain", "[core]\n\thooksPath = .githooks\n", [["core", null, "hookspath", ".githooks"]]],
    ["case of section and key", "[CORE]\n  HooksPath=x", [["core", null, "hookspath", "x"]]],
    [
      "quoted, with a comment after",
      '[core]\n\thooksPath = "my hooks" # team\n',
      [["core", null, "hookspath", "my hooks"]],
    ],
    ["comment characters inside quotes", '[alias]\n\tx = "!echo a;b#c"\n', [["alias", null, "x", "!echo a;b#c"]]],
    ["escapes", '[a]\n\tb = x\\"y\\\\z\\tw\n', [["a", null, "b", 'x"y\\z\tw']]],
    ["continued line", "[a]\n\tb = one \\\n two\n", [["a", null, "b", "one  two"]]],
    ["internal whitespace kept, ends trimmed", "[a]\n\tb =   x   y   \n", [["a", null, "b", "x   y"]]],
    [
      "subsection keeps its case",
      '[includeIf "gitdir:~/Work/"]\n\tpath = w.inc\n',
      [["includeif", "gitdir:~/Work/", "path", "w.inc"]],
    ],
    ["old dotted subsection", "[filter.Lfs]\n\tclean = x\n", [["filter", "lfs", "clean", "x"]]],
    ["key without value", "[core]\n\tbare\n", [["core", null, "bare", null]]],
    ["key on the header's line", "[core] hooksPath = h\n", [["core", null, "hookspath", "h"]]],
    [
      "several values",
      "[include]\n\tpath = a\n\tpath = b\n",
      [
        ["include", null, "path", "a"],
        ["include", null, "path", "b"],
      ],
    ],
    ["a line git rejects is skipped", "[core]\n\t=broken\n\thooksPath = h\n", [["core", null, "hookspath", "h"]]],
    ["no section yet", "hooksPath = h\n[core]\n\tx = 1\n", [["core", null, "x", "1"]]],
    ["CRLF and BOM", "\uFEFF[core]\r\n\thooksPath = h\r\n", [["core", null, "hookspath", "h"]]],
    [
      "unknown escape ends the value",
      "[a]\n\tb = x\\qy\n\tc = 2\n",
      [
        ["a", null, "b", "x"],
        ["a", null, "c", "2"],
      ],
    ],
  ])("%s", (_name, text, expected) => {
    expect(one(text)).toEqual(expected);
  });
});
