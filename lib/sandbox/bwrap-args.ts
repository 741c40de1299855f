/** HOME inside the sandbox: a private, writable place, so tools that write caches or history do not fail. */
export const SANDBOX_HOME = "/tmp/home";

/** What one command may do. Everything else (the host, its network, Plangate itself) stays out of reach. */
export type SandboxProfile = {
  /** The workspace is writable; otherwise every mount is read-only. */
  write: boolean;
  /** A private network stack with outside access (slirp4netns, never the host's loopback); otherwise none. */
  network: boolean;
};

/** A host path the sandbox must not show (see BwrapOptions.hide). */
export type HiddenPath = { path: string; dir: boolean; beforeWorkspace: boolean };

/** How a host path appears in the sandbox's root: the same symlink, or a read-only bind of the folder. */
export type SystemEntry = { path: string; symlink: string | null };

export type BwrapOptions = {
  /** realpath of the workspace: the only host folder a writing command may change. */
  workspace: string;
  /** Where the command starts (inside the workspace). */
  cwd: string;
  profile: SandboxProfile;
  /** The system's programs and libraries (/usr and its merged-/usr links), as found on this host. */
  system: readonly SystemEntry[];
  /** Entries of /etc the programs need (names, resolver, certificates, alternatives); missing ones are skipped. */
  etc: readonly string[];
  /** Further host paths shown read-only (the server's own Node.js when it lives elsewhere, configured extras). */
  extraRead?: readonly string[];
  /** Mounted read-only over a writable workspace: control files the command was not approved to change. */
  protect?: readonly string[];
  /** Bound onto themselves before `protect` (`.git`): a mount point cannot be renamed away and rebuilt with a planted config. */
  pin?: readonly string[];
  /** Control folders that do not exist yet, covered by an empty read-only folder (`empty`) over a writable workspace. */
  cover?: { empty: string; paths: readonly string[] };
  /**
   * The server's own files, never shown whatever else shows them: a folder becomes an empty private one, a file
   * reads as empty. `beforeWorkspace`: the workspace lies inside it, so it is hidden first and the workspace bound into it.
   */
  hide?: readonly HiddenPath[];
  /** An empty file a hidden file is replaced by (it then reads as empty). */
  emptyFile?: string;
  /** The resolver file for the private network (its DNS forwarder's address). */
  resolvConf?: string;
  /** File descriptors bubblewrap reports the child's pid on and waits on before starting it (network setup). */
  infoFd?: number;
  blockFd?: number;
};

/**
 * The bubblewrap options (everything before "--" and the command) for one shell command. The root is empty:
 * only the system's programs, a chosen part of /etc, a private /tmp and HOME, and the workspace are shown, so
 * home folders, Plangate's data folder, other workspaces, host sockets and secrets in /etc do not exist.
 * The network is always unshared; a command allowed the network gets its own stack attached from outside.
 */
export function bwrapArgs(o: BwrapOptions): string[] {
  const args: string[] = [];
  for (const entry of o.system) {
    if (entry.symlink !== null) args.push("--symlink", entry.symlink, entry.path);
    else args.push("--ro-bind", entry.path, entry.path);
  }
  args.push("--dir", "/etc");
  for (const name of o.etc) {
    if (name === "resolv.conf" && o.resolvConf !== undefined) continue;
    args.push("--ro-bind-try", `/etc/${name}`, `/etc/${name}`);
  }
  if (o.resolvConf !== undefined) args.push("--ro-bind", o.resolvConf, "/etc/resolv.conf");
  args.push("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp", "--dir", "/run");
  args.push("--dir", SANDBOX_HOME, "--setenv", "HOME", SANDBOX_HOME, "--setenv", "TMPDIR", "/tmp");
  for (const extra of o.extraRead ?? []) args.push("--ro-bind-try", extra, extra);
  const hide = (h: HiddenPath) =>
    h.dir ? args.push("--tmpfs", h.path) : args.push("--ro-bind", o.emptyFile ?? "/dev/null", h.path);
  for (const h of o.hide ?? []) if (h.beforeWorkspace) hide(h);
  // Bound after the tmpfs mounts, or a workspace under /tmp (mkdtemp) would be hidden by them.
  args.push(o.profile.write ? "--bind" : "--ro-bind", o.workspace, o.workspace);
  if (o.profile.write) {
    for (const p of o.pin ?? []) args.push("--bind", p, p);
    for (const p of o.protect ?? []) args.push("--ro-bind", p, p);
    for (const p of o.cover?.paths ?? []) args.push("--ro-bind", o.cover?.empty ?? "/nonexistent", p);
  }
  for (const h of o.hide ?? []) if (!h.beforeWorkspace) hide(h);
  for (const h of o.hide ?? []) if (h.dir) args.push("--remount-ro", h.path);
  // The synthetic root itself (/etc, the folders above the workspace) is read-only too; only /tmp stays writable.
  args.push("--remount-ro", "/");
  args.push("--unshare-net", "--unshare-ipc", "--unshare-uts", "--hostname", "sandbox");
  // As root, bwrap keeps every capability unless told otherwise, and CAP_SYS_ADMIN is enough to
  // `unshare -m` and remount / read-write from inside the sandbox.
  args.push("--cap-drop", "ALL");
  args.push("--unshare-pid", "--die-with-parent", "--new-session");
  if (o.infoFd !== undefined) args.push("--info-fd", String(o.infoFd));
  if (o.blockFd !== undefined) args.push("--block-fd", String(o.blockFd));
  args.push("--chdir", o.cwd);
  return args;
}
