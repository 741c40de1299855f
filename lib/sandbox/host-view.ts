import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SystemEntry } from "./bwrap-args";

/** Where programs and libraries live on Debian-like systems (merged /usr makes most of them links). */
const SYSTEM_PATHS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"];

/**
 * The parts of /etc that programs read to run: users and groups (names only, no shadow), name resolution,
 * certificates, the dynamic linker, locale and time zone, Debian's alternatives links, and the system-wide
 * git, shell and interpreter settings. Anything else in /etc (shadow, ssh host keys, sudoers, credentials
 * files, cron, other services' configuration) does not exist in the sandbox.
 */
export const ETC_ENTRIES: readonly string[] = [
  "passwd",
  "group",
  "hosts",
  "host.conf",
  "nsswitch.conf",
  "resolv.conf",
  "gai.conf",
  "hostname",
  "ssl",
  "ca-certificates",
  "ca-certificates.conf",
  "pki",
  "crypto-policies",
  "alternatives",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "localtime",
  "timezone",
  "locale.alias",
  "locale.conf",
  "default/locale",
  "mime.types",
  "magic",
  "magic.mime",
  "protocols",
  "services",
  "shells",
  "os-release",
  "debian_version",
  "lsb-release",
  "gitconfig",
  "gitattributes",
  "bash.bashrc",
  "profile",
  "inputrc",
  "terminfo",
  "environment",
  "python3",
  "python3.11",
  "python3.12",
  "perl",
  "java-17-openjdk",
  "gprofng.rc",
];

/** The private network's DNS forwarder (slirp4netns). */
const SLIRP_DNS = "10.0.2.3";

export type HostView = {
  system: SystemEntry[];
  /** Read-only extras every command sees: the server's own Node.js when it is installed outside /usr. */
  extraRead: string[];
  resolvConf: string;
  /** An empty folder no command can write: what covers a control folder that does not exist yet. */
  emptyDir: string;
  /** An empty file: what a hidden file of the server's reads as. */
  emptyFile: string;
};

let cached: HostView | null = null;

function systemEntries(): SystemEntry[] {
  const out: SystemEntry[] = [];
  for (const p of SYSTEM_PATHS) {
    try {
      const stat = fs.lstatSync(p);
      if (stat.isSymbolicLink()) out.push({ path: p, symlink: fs.readlinkSync(p) });
      else if (stat.isDirectory()) out.push({ path: p, symlink: null });
    } catch {
      // Not on this system.
    }
  }
  return out;
}

function insideAny(p: string, roots: readonly string[]): boolean {
  return roots.some((r) => p === r || p.startsWith(r.endsWith("/") ? r : `${r}/`));
}

/** The install folder of the Node.js running the server (e.g. ~/.nvm/versions/node/v20), when not a system path. */
function nodePrefix(system: SystemEntry[]): string[] {
  const exec = fs.realpathSync(process.execPath);
  const dirs = system.map((s) => (s.symlink === null ? s.path : path.resolve(path.dirname(s.path), s.symlink)));
  return insideAny(exec, dirs) ? [] : [path.dirname(path.dirname(exec))];
}

/** Computed once per process: the host's layout does not change while the server runs. */
export function hostView(): HostView {
  if (cached) return cached;
  const system = systemEntries();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-sandbox-"));
  const resolvConf = path.join(dir, "resolv.conf");
  fs.writeFileSync(resolvConf, `nameserver ${SLIRP_DNS}\n`);
  const emptyDir = path.join(dir, "empty");
  fs.mkdirSync(emptyDir, { mode: 0o555 });
  const emptyFile = path.join(dir, "empty-file");
  fs.writeFileSync(emptyFile, "", { mode: 0o444 });
  cached = { system, extraRead: nodePrefix(system), resolvConf, emptyDir, emptyFile };
  return cached;
}

/** Folders that must never be shown, whoever asks: home folders, the data folder, system internals. */
export function hiddenRoots(dataDir: string, workspaceRoots: readonly string[]): string[] {
  return [
    "/root",
    "/home",
    "/etc",
    "/proc",
    "/sys",
    "/dev",
    "/run",
    "/var/run",
    "/boot",
    dataDir,
    ...workspaceRoots,
    os.homedir(),
  ];
}

/**
 * Extra read-only paths from a workspace's config, kept only when they exist and neither lie inside nor
 * contain a hidden folder: a cloned repository must not be able to show itself the person's home or the
 * server's database.
 */
export function filterExtraRead(
  requested: readonly string[],
  hidden: readonly string[],
): { kept: string[]; refused: string[] } {
  const kept: string[] = [];
  const refused: string[] = [];
  for (const raw of requested) {
    let real: string;
    try {
      real = fs.realpathSync(raw);
    } catch {
      refused.push(raw);
      continue;
    }
    const contains = hidden.some((h) => insideAny(h, [real]));
    if (!path.isAbsolute(raw) || real === "/" || insideAny(real, hidden) || contains) refused.push(raw);
    else kept.push(real);
  }
  return { kept, refused };
}
