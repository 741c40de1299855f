import { describe, expect, it } from "vitest";
import { isReadOnlyCommand } from "./read-only-commands";
import { countOperands, longPrefix, shortFlag } from "./read-only-rules";

describe("isReadOnlyCommand accepts", () => {
  it.each([
    "ls -la",
    "cat README.md | grep -n foo | wc -l",
    "head -n 20 src/a.ts && tail -5 src/b.ts",
    "rg -n 'TODO' lib",
    "grep -r pattern . 2>/dev/null",
    "find . -name '*.md' -type f",
    "find src -maxdepth 2 -print0",
    "pwd; echo hello; printf '%s\\n' a b",
    "which node; type ls; file README.md; stat README.md",
    "du -sh .; df -h; tree -L 2",
    "basename a/b.c; dirname a/b.c; realpath .; readlink -f x",
    "date +%F; uname -a; whoami; id",
    "env",
    "printenv PATH",
    "true && false || true",
    "test -f README.md && [ -d src ]",
    "diff a b; cmp a b",
    "sort -u names | uniq -c",
    "sort -k2 -t, data.csv",
    "uniq -f 1 input",
    "cut -d: -f1 /etc/passwd | tr a-z A-Z | nl",
    "jq .name package.json",
    "sha256sum README.md; md5sum README.md",
    "git status",
    "git log --oneline -n 5",
    "git --no-pager diff HEAD~1 -- src",
    "git show HEAD:README.md",
    "git branch",
    "git branch -a",
    "git branch --show-current",
    "git rev-parse HEAD && git ls-files && git describe --tags",
    "git blame README.md; git grep -n foo; git shortlog -sn",
    "git remote -v",
    "git config --get user.name",
    "git config --list",
    "git --version",
    "cat < README.md",
    "cat <<EOF\nhello\nEOF",
    'grep x <<< "$HOME"',
    "ls >&2; ls 2>&1; ls 1>&2; ls &>/dev/null; ls >/dev/null",
    "(ls; cat a) | sort",
    "{ ls; }",
    'echo "$(git rev-parse HEAD)" `pwd`',
    "diff <(ls a) <(ls b)",
    'for f in *.md; do wc -l "$f"; done',
    "if test -d src; then ls src; else echo none; fi",
    "while false; do ls; done",
    "case x in a) ls ;; esac",
    "echo $HOME ${HOME} ${#HOME} $1 $@",
    "ls # a comment",
  ])("%j", (src) => {
    expect(isReadOnlyCommand(src)).toEqual({ ok: true });
  });
});

describe("isReadOnlyCommand refuses", () => {
  it.each([
    ["rm -rf build", '"rm" is not a read-only command'],
    // The parser splits at a carriage return, bash does not: bash would run the program `./cat\rx/y`.
    ["cat\rx/y", "control character"],
    ["ls\u0000x", "control character"],
    ["touch x", '"touch" is not a read-only command'],
    ["/bin/ls", '"/bin/ls" is not a read-only command'],
    ["less README.md", '"less" is not a read-only command'],
    ["ls && rm x", '"rm" is not a read-only command'],
    ["ls | tee out.txt", '"tee" is not a read-only command'],
    ["echo $(rm -rf x)", '"rm" is not a read-only command'],
    ["cat <(touch x)", '"touch" is not a read-only command'],
    ["(cd src && ls)", '"cd" is not a read-only command'],
    ["echo x > out.txt", 'redirection to "out.txt" writes a file'],
    ["echo x >> README.md", 'redirection to "README.md" writes a file'],
    ["echo x >| out", 'redirection to "out" writes a file'],
    ["ls &> log", 'redirection to "log" writes a file'],
    ["ls &>> log", 'redirection to "log" writes a file'],
    ["ls 2> err.txt", 'redirection to "err.txt" writes a file'],
    ["cat README.md > /dev/stdout > k.txt", 'redirection to "/dev/stdout" writes a file'],
    ["ls > $OUT", 'redirection to "$OUT" writes a file'],
    ["ls >& out", "redirection >& out is not allowed"],
    ["cat 3<> file", "redirection 3<> file is not allowed"],
    ["cat <&3", "redirection <&3 is not allowed"],
    ["cat <<EOF > x\nhi\nEOF", 'redirection to "x" writes a file'],
    ["FOO=1 ls", 'variable assignment "FOO=1" is not allowed'],
    ["x=1", 'variable assignment "x=1" is not allowed'],
    ["export FOO=1", '"export" sets variables'],
    ["declare -x a=b", '"declare" sets variables'],
    ["eval ls", '"eval" runs arbitrary code'],
    ["exec 3>s.txt", '"exec" replaces the shell or reopens its files'],
    ["source ./env.sh", '"source" runs a script'],
    [". ./env.sh", '"." runs a script'],
    ["find . | xargs rm", '"xargs" runs arbitrary commands'],
    ["f() { ls; }", "function declarations are not allowed"],
    ["((x++))", "arithmetic ((x++)) is not allowed"],
    ["let x=1", "arithmetic let x=1 is not allowed"],
    ["echo $((1+2))", "arithmetic $((1+2)) is not allowed"],
    ["for ((i=0; i<3; i++)); do ls; done", "arithmetic"],
    ["[[ -f x ]]", "[[ … ]] is not allowed"],
    ["echo ${x:=1}", "parameter expansion ${x:=1} is not allowed"],
    ["echo ${!name}", "parameter expansion ${!name} is not allowed"],
    ["echo ${a[$(id)]}", "parameter expansion"],
    ["echo ${f@P}", "parameter expansion"],
    ["$CMD -la", "the command name $CMD is not a literal word"],
    ['echo "unclosed', "the command could not be parsed"],
    ["find . -name '*.md' -exec touch {} +", "find -exec can write files or run commands"],
    ["find . -execdir rm {} ;", "find -execdir"],
    ["find . -ok rm {} ;", "find -ok"],
    ["find . -okdir rm {} ;", "find -okdir"],
    ["find . -delete", "find -delete"],
    ["find . \\-delete", "find -delete"],
    ["find . -del''ete", "find -delete"],
    ["find . -fprint out", "find -fprint"],
    ["find . -fprint0 out", "find -fprint0"],
    ["find . -fprintf out %p", "find -fprintf"],
    ["find . -fls out", "find -fls"],
    ["find . $ACTION", '"find" argument $ACTION is not a literal word'],
    ["find *", '"find" argument * is not a literal word'],
    ["sort -o out.txt in", "sort -o writes files"],
    ["sort -uo out in", "sort -uo writes files"],
    ["sort --output=out in", "sort --output=out"],
    ["sort --out=out in", "sort --out=out"],
    ["sort --compress-program=sh in", "sort --compress-program=sh"],
    ["uniq in out", "uniq with a second file operand writes that file"],
    ["env rm -rf x", '"env" with arguments runs a command'],
    ["printf -v x hi", "printf -v assigns a variable"],
    ["test -v 'a[$(id)]'", "test -v can run code"],
    ["date -s tomorrow", "date -s sets the clock"],
    ["date --set=tomorrow", "date --set=tomorrow"],
    ["tree -o out.txt", "tree -o writes files"],
    ["rg --pre ./decode x", "rg --pre runs a program"],
    ["file -C -m magic", "file -C writes"],
    ["git -C /elsewhere status", "git -C changes the directory or configuration git uses"],
    ["git -c core.pager=sh log", "git -c changes"],
    ["git --git-dir=/x log", "git --git-dir changes"],
    ["git --work-tree=/x status", "git --work-tree changes"],
    ["git --exec-path=/x status", "git --exec-path changes"],
    ["git --help", "git option --help is not allowed"],
    ["git commit -m x", '"git commit" is not a read-only command'],
    ["git checkout -b other", '"git checkout" is not a read-only command'],
    ["git stash", '"git stash" is not a read-only command'],
    ["git tag t1", '"git tag" is not a read-only command'],
    ["git branch other", "git branch other can change branches"],
    ["git branch -D main", "git branch -D main can change branches"],
    ["git remote add o url", "git remote add o url can change remotes"],
    ["git config user.name evil", "git config user.name evil can change the configuration"],
    ["git config --unset user.name", "can change the configuration"],
    ["git config --list --global", "can change the configuration"],
    ["git log --output=x.txt", "git log --output=x.txt writes a file or runs a program"],
    ["git diff --ext-diff", "git diff --ext-diff"],
    ["git grep -O foo", "git grep -O writes a file or runs a program"],
    ["git grep --open-files-in-pager=vi foo", "git grep --open-files-in-pager=vi"],
    ["git $SUB", '"git" argument $SUB is not a literal word'],
    // A descriptor other than stdin, opened with <, is still an output (the holes that reached the network).
    ["printf 'POST / HTTP/1.1' 1</dev/tcp/127.0.0.1/3000", "redirection 1</dev/tcp/127.0.0.1/3000 is not allowed"],
    ["echo hi 1</dev/tcp/example.com/80", "is not allowed"],
    ["echo hi 2</dev/udp/10.0.0.1/53", "is not allowed"],
    ["cat < /dev/tcp/127.0.0.1/3000", "is not allowed"],
    ["cat 0</dev/tcp/127.0.0.1/3000", "is not allowed"],
    ["cat < $FILE", "input redirection from $FILE is not a literal path"],
    ["cat /dev/tcp/127.0.0.1/80", "names a network socket"],
    ["echo hi 1<<<x", "is not allowed"],
  ])("%j: %s", (src, reason) => {
    const verdict = isReadOnlyCommand(src);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toContain(reason);
  });
});

describe("isReadOnlyCommand without a sandbox (confined) also refuses what reaches outside the workspace", () => {
  it.each([
    ["cat /etc/shadow", "reaches outside the workspace"],
    ["cat ../other/secret", "reaches outside the workspace"],
    ["cat ~/.gitconfig", "is not a literal word"],
    ["grep -r --file=/etc/passwd x .", "reaches outside the workspace"],
    ["cat < /root/.ssh/id_rsa", "reaches outside the workspace"],
    ["cat $HOME/.ssh/id_rsa", "is not a literal word"],
    ["ls src/../..", "reaches outside the workspace"],
  ])("%j: %s", (src, reason) => {
    // With bubblewrap these are harmless (the host is not in the sandbox), so the classifier lets them run.
    expect(isReadOnlyCommand(src).ok).toBe(true);
    const verdict = isReadOnlyCommand(src, { confined: true });
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toContain(reason);
  });

  it.each(["cat README.md", "ls -la src", "grep -rn TODO src", "git log -n 3", "cat < README.md"])(
    "%j stays allowed",
    (src) => {
      expect(isReadOnlyCommand(src, { confined: true })).toEqual({ ok: true });
    },
  );
});

describe("option helpers", () => {
  it.each<[string, string, string, boolean]>([
    ["-o", "o", "k", true],
    ["-uo", "o", "k", true],
    ["-ko", "o", "k", false],
    ["--output", "o", "", false],
    ["-", "o", "", false],
    ["out", "o", "", false],
  ])("shortFlag(%j, %j, %j) = %s", (arg, danger, takes, expected) => {
    expect(shortFlag(arg, danger, takes)).toBe(expected);
  });

  it.each<[string, boolean]>([
    ["--output", true],
    ["--out=x", true],
    ["--oneline", false],
    ["--", false],
    ["-o", false],
  ])("longPrefix(%j, [output]) = %s", (arg, expected) => {
    expect(longPrefix(arg, ["output"])).toBe(expected);
  });

  it.each<[string[], number]>([
    [["a"], 1],
    [["a", "b"], 2],
    [["-f", "1", "a"], 1],
    [["-f1", "a", "b"], 2],
    [["--skip-fields", "2", "a"], 1],
    [["--skip-fields=2", "a"], 1],
    [["-c", "-", "b"], 2],
    [["--", "-x", "y"], 2],
  ])("countOperands(%j) = %i", (args, expected) => {
    expect(countOperands(args, "fsw", ["skip-fields"])).toBe(expected);
  });
});
