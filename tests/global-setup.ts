import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../lib/db/migrate";

// Migrate one template database per run; each test copies it instead of running migrations again.
export default function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-test-"));
  const template = path.join(dir, "template.db");
  migrateDatabase(`file:${template}`, { quiet: true });
  project.provide("templateDb", template);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDb: string;
  }
}
