/** HOME inside the sandbox: a private, writable place, so tools that write caches or history do not fail. */
export const SANDBOX_HOME = "/tmp/home";

export type BwrapOptions = {
  /** realpath of the workspace: the only host folder a non-read-only command may change. */
  workspace: string;
  readOnly: boolean;
  /** Where the command starts (inside the workspace). */
  cwd: string;
};

/**
 * The bubblewrap options (everything before "--" and the command) for one shell command.
 * The whole host is mounted read-only; read-only calls also get no network and no /run.
 */
export function bwrapArgs({ workspace, readOnly, cwd }: BwrapOptions): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  // /run holds host sockets (databases, dbus, docker): connect() works through a read-only
  // mount, so a read-only call could still change things by talking to a daemon.
  if (readOnly) args.push("--tmpfs", "/run");
  args.push("--dir", SANDBOX_HOME, "--setenv", "HOME", SANDBOX_HOME, "--setenv", "TMPDIR", "/tmp");
  // Bound after the tmpfs mounts, or a workspace under /tmp (mkdtemp) would be hidden by them.
  args.push(readOnly ? "--ro-bind" : "--bind", workspace, workspace);
  if (readOnly) args.push("--unshare-net", "--unshare-ipc");
  // As root, bwrap keeps every capability unless told otherwise, and CAP_SYS_ADMIN is enough to
  // `unshare -m` and remount / read-write from inside the sandbox.
  args.push("--cap-drop", "ALL");
  args.push("--unshare-pid", "--die-with-parent", "--new-session", "--chdir", cwd);
  return args;
}
