import { describe, expect, it } from "vitest";
import { parseShell, REDIR, splitCommands, walkShell, type ShRedirect } from "./split-commands";

describe("splitCommands", () => {
  it.each<[string, string[]]>([
    ["ls", ["ls"]],
    ["git   log  -n 3", ["git log -n 3"]],
    ["git log -n 3 && rm -rf build", ["git log -n 3", "rm -rf build"]],
    ["a || b; c", ["a", "b", "c"]],
    ["cat x | grep y | wc -l", ["cat x", "grep y", "wc -l"]],
    ["ls |& tee log", ["ls", "tee log"]],
    ["(cd src && make)", ["cd src", "make"]],
    ["{ echo a; echo b; }", ["echo a", "echo b"]],
    ["echo $(  ls   a )", ["echo $(ls a)", "ls a"]],
    ["echo `pwd`", ["echo $(pwd)", "pwd"]],
    ["diff <(ls a) <(ls b)", ["diff <(ls a) <(ls b)", "ls a", "ls b"]],
    ["echo 'a  b'   \"c  d\"", ["echo 'a  b' \"c  d\""]],
    ['echo "$(rm -rf x)"', ['echo "$(rm -rf x)"', "rm -rf x"]],
    ["if test -f x; then rm x; else touch x; fi", ["test -f x", "rm x", "touch x"]],
    ['for f in *.md; do wc -l "$f"; done', ['wc -l "$f"']],
    ['while read -r l; do echo "$l"; done < list', ["<list", "read -r l", 'echo "$l"']],
    ["case $x in a) rm a ;; *) ls ;; esac", ["rm a", "ls"]],
    ["f() { rm -rf /; }; f", ["rm -rf /", "f"]],
    ["FOO=1 git log", ["FOO=1 git log"]],
    ["export A=$(id)", ["export A=$(id)", "id"]],
    ["echo x  >  out.txt 2>&1", ["echo x >out.txt 2>&1"]],
    [">out.txt", [">out.txt"]],
    ["{ echo a; } > out", [">out", "echo a"]],
    ["cat <<EOF | grep é\nhello $(whoami)\nEOF", ["cat <<EOF", "whoami", "grep é"]],
    ["! ls &", ["ls"]],
    ["[[ -f $(pwd) ]]", ["pwd"]],
    ["", []],
    ["# only a comment", []],
  ])("%j → %j", (src, commands) => {
    expect(splitCommands(src)).toEqual({ commands });
  });

  it.each([['echo "a'], ["if then"], ["a &&"], ["echo $(("]])("a parse error keeps the whole text: %j", (src) => {
    const result = splitCommands(`  ${src}  `);
    expect(result.commands).toEqual([src]);
    expect(result.error).toMatch(/\S/);
  });
});

describe("mvdan-sh redirection operator numbers", () => {
  it("match the REDIR table (pins the GopherJS build's token values)", () => {
    const parsed = parseShell("a >x >>x <x <>x <&0 >&1 >|x <<E <<-E <<<x &>x &>>x\nE\nE\n");
    if ("error" in parsed) throw new Error(parsed.error);
    const ops: number[] = [];
    walkShell(parsed.file, (node, type) => {
      if (type === "Redirect") ops.push((node as ShRedirect).Op);
      return true;
    });
    const r = REDIR;
    expect(ops).toEqual([
      r.out,
      r.append,
      r.in,
      r.inOut,
      r.dupIn,
      r.dupOut,
      r.clobber,
      r.hdoc,
      r.dashHdoc,
      r.hereString,
      r.all,
      r.appendAll,
    ]);
    expect(ops).toEqual([54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65]);
  });
});
