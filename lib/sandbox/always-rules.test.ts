import { describe, expect, it } from "vitest";
import { isSafePrefixRule } from "../permission/prefix-rules";
import { alwaysOptions, commandShapes, plainCommands } from "./always-rules";
import { splitCommands } from "./split-commands";

/** The rules "Allow always" would offer for every command of a script, as the gate splits it. */
function offered(src: string): string[][] {
  const { commands } = splitCommands(src);
  const plain = plainCommands(src, commands);
  return commands.map((text) => {
    const words = plain.get(text) ?? null;
    return alwaysOptions({ text, plain: words !== null, words }).map((o) => (o.exact ? `=${o.rule}` : o.rule));
  });
}

describe("Allow always never saves more than was approved", () => {
  it.each([
    // The holes: wrappers, interpreters, git's global options, redirections and package scripts were widened.
    ["env FOO=1 ls", [["=env FOO=1 ls"]]],
    ["timeout 5 echo hi", [["=timeout 5 echo hi"]]],
    ["bash -c 'echo x > f'", [["=bash -c 'echo x > f'"]]],
    ["sh -c ls", [["=sh -c ls"]]],
    ["git -c color.ui=never status", [["=git -c color.ui=never status"]]],
    ["ls > out.txt", [["=ls >out.txt"]]],
    ["npm test", [["=npm test"]]],
    ["npm run build", [["=npm run build"]]],
    ["nice -n 5 make", [["=nice -n 5 make"]]],
    ["nohup make &", [["=nohup make"]]],
    ["xargs rm < list", [["=xargs rm <list"]]],
    ["sudo ls", [["=sudo ls"]]],
    ["python3 -c 'print(1)'", [["=python3 -c 'print(1)'"]]],
    ["node -e 1", [["=node -e 1"]]],
    ["npx tsc", [["=npx tsc"]]],
    ["find . -name x -delete", [["=find . -name x -delete"]]],
    ["find . -exec rm {} +", [["=find . -exec rm {} +"]]],
    ["FOO=1 git log", [["=FOO=1 git log"]]],
    ["rm -rf build", [["=rm -rf build"]]],
    ["rm *", [["=rm *"]]],
    ["cat $HOME/x", [["=cat $HOME/x"]]],
    ["echo $(rm -rf x)", [["=echo $(rm -rf x)"], ["=rm -rf x"]]],
    ["cat <(rm x)", [["=cat <(rm x)"], ["=rm x"]]],
    ["grep x a | tee out", [["=grep x a", "grep *"], ["=tee out"]]],
    // Plain commands of programs that only read (or create empty things) may grow to any arguments.
    ["ls -la src", [["=ls -la src", "ls *"]]],
    ["mkdir -p build/out", [["=mkdir -p build/out", "mkdir *"]]],
    ["git status --short", [["=git status --short", "git status *"]]],
    ["git add src/a.ts", [["=git add src/a.ts", "git add *"]]],
    ["git log -n 3", [["=git log -n 3"]]],
    ["git clean -fdx", [["=git clean -fdx"]]],
    ["echo 'a b'", [["=echo 'a b'"]]],
  ])("%s", (src, expected) => {
    expect(offered(src)).toEqual(expected);
  });
});

describe("a command the shell reads otherwise than the parser", () => {
  it("with a carriage return is never plain: only its exact text may be saved", () => {
    const [shape] = commandShapes("cat\rx/y");
    expect(shape?.plain).toBe(false);
    expect(alwaysOptions(shape!).map((o) => o.exact)).toEqual([true]);
  });
});

describe("isSafePrefixRule (older grants are read as exact text unless still safe)", () => {
  it.each([
    ["ls *", true],
    ["git status *", true],
    ["git add *", true],
    ["env *", false],
    ["timeout 5 *", false],
    ["bash *", false],
    ["git *", false],
    ["ls > x *", false],
    ["npm test *", false],
    ["git log *", false],
    ["ls", false],
  ])("%s → %s", (pattern, safe) => {
    expect(isSafePrefixRule(pattern)).toBe(safe);
  });
});
