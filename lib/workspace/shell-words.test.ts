import { describe, expect, it } from "vitest";
import { shellWords } from "./shell-words";

const show = (line: string) => shellWords(line).map((w) => (w.command ? `[${w.word}]` : w.word));

describe("shellWords: a command split as sh -c would, the program marked", () => {
  it.each<[string, string[]]>([
    ["tools/git-proxy.sh", ["[tools/git-proxy.sh]"]],
    ["sh fmt-clean.sh", ["[sh]", "fmt-clean.sh"]],
    ["python3 pdf2txt.py --layout", ["[python3]", "pdf2txt.py", "--layout"]],
    ['touch "/tmp/a b"; false', ["[touch]", "/tmp/a b", "[false]"]],
    ["a.sh && ./b.sh || c d | e f", ["[a.sh]", "[./b.sh]", "[c]", "d", "[e]", "f"]],
    ["LANG=C sort x.txt", ["[sort]", "x.txt"]],
    ["cat < in.txt > out.txt 2>&1", ["[cat]", "in.txt", "out.txt"]],
    ["sh 'my tool.sh' x\\ y.sh", ["[sh]", "my tool.sh", "x y.sh"]],
    // Expansions and git's placeholders name nothing known here.
    ['"$GIT_DIR/hooks/x" %f `pwd`/y ok.sh', ["ok.sh"]],
    ["f() { ./hook.sh; }; f", ["[f]", "[./hook.sh]", "[f]"]],
    ["! ./x.sh # a comment.sh", ["[./x.sh]"]],
    ["", []],
  ])("%s", (line, words) => {
    expect(show(line)).toEqual(words);
  });
});
