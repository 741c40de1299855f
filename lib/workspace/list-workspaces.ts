import fs from "node:fs";
import path from "node:path";

const MAX = 200;

function looksLikeProject(entries: fs.Dirent[]): boolean {
  return entries.some((e) => e.name === ".git" || (e.isFile() && !e.name.startsWith(".")));
}

/**
 * Folders a new session may use: each allowed root's sub-folders, and a root itself when it holds files
 * (a root pointed straight at a project). Hidden folders are skipped; unreadable roots are ignored.
 */
export function listWorkspaces(roots: string[]): string[] {
  const found = new Set<string>();
  for (const root of roots) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(root, { withFileTypes: true });
    } catch {
      continue;
    }
    if (looksLikeProject(entries)) found.add(root);
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory() && !e.name.startsWith(".")) found.add(path.join(root, e.name));
      if (found.size >= MAX) return [...found];
    }
  }
  return [...found];
}
