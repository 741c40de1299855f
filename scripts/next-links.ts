// Next's production build reaches some packages through links in .next/node_modules (`kysely-<hash>` →
// ../../node_modules/kysely). A package cannot carry links, so `npm pack` records them (prepack) and the install
// makes them again (postinstall); in a checkout they are already there and nothing changes.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const RECORD = path.join(".next", "plangate-links.json");

type Link = { path: string; target: string };

function linksUnder(dir: string): Link[] {
  const out: Link[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) out.push({ path: rel, target: fs.readlinkSync(path.join(root, rel)) });
    else if (entry.isDirectory() && entry.name.startsWith("@")) out.push(...linksUnder(rel));
  }
  return out;
}

/** Writes the build's links down; none when there is no build. */
export function recordNextLinks(): number {
  const dir = path.join(".next", "node_modules");
  const links = fs.existsSync(path.join(root, dir)) ? linksUnder(dir) : [];
  fs.writeFileSync(path.join(root, RECORD), `${JSON.stringify(links, null, 2)}\n`);
  return links.length;
}

/** Makes the recorded links that are missing, each only to a package of this install's own node_modules. */
export function restoreNextLinks(): number {
  const file = path.join(root, RECORD);
  if (!fs.existsSync(file)) return 0;
  const modules = path.join(root, "node_modules") + path.sep;
  let made = 0;
  for (const link of JSON.parse(fs.readFileSync(file, "utf8")) as Link[]) {
    const at = path.resolve(root, link.path);
    const to = path.resolve(path.dirname(at), link.target);
    const inside = at.startsWith(path.join(root, ".next", "node_modules") + path.sep) && to.startsWith(modules);
    if (!inside) throw new Error(`${RECORD}: ${link.path} → ${link.target} leaves the package`);
    if (fs.lstatSync(at, { throwIfNoEntry: false })) continue;
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.symlinkSync(link.target, at);
    made++;
  }
  return made;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const made = process.argv[2] === "record" ? recordNextLinks() : restoreNextLinks();
  if (made > 0)
    console.log(`plangate: ${process.argv[2] === "record" ? "recorded" : "made"} ${made} link(s) of the build`);
}
