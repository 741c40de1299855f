import { describe, expect, it } from "vitest";
import { gitSetting } from "./git-config-keys";
import { parseGitConfig } from "./git-config-parse";

/** The kind of setting each key is, as a config file with that one line would say it. */
const kind = (section: string, line: string) => {
  const [entry] = parseGitConfig(`[${section}]\n\t${line}\n`);
  if (entry === undefined) throw new Error(`not parsed: ${line}`);
  const s = gitSetting(entry);
  return s === null ? null : `${s.kind}:${s.value}`;
};

describe("gitSetting: which settings make git take something from the working tree by itself", () => {
  it.each<[string, string, string | null]>([
    ["core", "fsmonitor = tools/fsm.sh", "program:tools/fsm.sh"],
    ["core", "fsmonitor = true", null],
    ["core", "gitProxy = tools/git-proxy.sh", "program:tools/git-proxy.sh"],
    ["core", "alternateRefsCommand = x.sh", "program:x.sh"],
    ["core", "sshCommand = ssh -i key", "program:ssh -i key"],
    ["core", "pager = sh pager.sh", "program:sh pager.sh"],
    ["core", "hooksPath = .githooks", "folder:.githooks"],
    ["core", "worktree = ..", "worktree:.."],
    ["core", "autocrlf = input", null],
    ["init", "templateDir = tpl", "folder:tpl"],
    ["include", "path = team.gitconfig", "include:team.gitconfig"],
    ['includeIf "gitdir:~/w/"', "path = x.inc", "include:x.inc"],
    ["sequence", "editor = ed.sh", "program:ed.sh"],
    ["interactive", "diffFilter = f.sh", "program:f.sh"],
    ['difftool "mine"', "path = d.sh", "program:d.sh"],
    ['difftool "mine"', "cmd = d.sh $LOCAL", "program:d.sh $LOCAL"],
    ['mergetool "mine"', "path = m.sh", "program:m.sh"],
    ['gpg "ssh"', "defaultKeyCommand = k.sh", "program:k.sh"],
    ['gpg "ssh"', "program = s.sh", "program:s.sh"],
    ["gpg", "program = g.sh", "program:g.sh"],
    ['submodule "v"', "update = !u.sh", "program:u.sh"],
    ['submodule "v"', "update = rebase", null],
    ['trailer "sign"', "command = t.sh", "program:t.sh"],
    ['trailer "sign"', "cmd = t.sh", "program:t.sh"],
    ['remote "m"', "uploadpack = up.sh", "program:up.sh"],
    ['remote "m"', "receivepack = rp.sh", "program:rp.sh"],
    ['remote "m"', "url = /srv/m.git", null],
    ['filter "f"', "clean = sh c.sh", "program:sh c.sh"],
    ['diff "pdf"', "textconv = python3 p.py", "program:python3 p.py"],
    ["diff", "external = ext.sh", "program:ext.sh"],
    ['merge "m"', "driver = m.sh %O %A %B", "program:m.sh %O %A %B"],
    ["credential", "helper = store", "program:store"],
    ['credential "https://x"', "helper = !h.sh", "program:h.sh"],
    ["alias", "ship = !sh ship.sh", "program:sh ship.sh"],
    ["alias", "st = status", null],
    ["pager", "log = false", null],
    ["pager", "log = less.sh", "program:less.sh"],
    ['hook "lint"', "command = lint.sh", "program:lint.sh"],
    ["uploadpack", "packObjectsHook = p.sh", "program:p.sh"],
    ['lfs "customtransfer.x"', "path = x.sh", "program:x.sh"],
    ["sendemail", "sendmailCmd = mail.sh", "program:mail.sh"],
    ["web", "browser = b.sh", "program:b.sh"],
    ["user", "name = x.sh", null],
  ])("[%s] %s → %s", (section, line, expected) => {
    expect(kind(section, line)).toBe(expected);
  });
});
