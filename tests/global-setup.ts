import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import pg from "pg";
import { migrateDatabase } from "../lib/db/migrate";
import { startLocalPostgres } from "../scripts/local-postgres";
import { buildBundles, bundlesNeedBuild } from "../scripts/build-bundles";

// Migrate one template database per run; each test copies it instead of running migrations again. The
// "postgres" project starts a private PostgreSQL cluster (or uses PLANGATE_TEST_PG_URL) and migrates a template
// database there, which tests clone.
export default async function setup(project: TestProject) {
  // The suites run the CLI as agents do, and the file tools through their worker: the bundled files, rebuilt when
  // cli/ or lib/ changed.
  if (bundlesNeedBuild()) await buildBundles();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-test-"));
  const template = path.join(dir, "template.db");
  await migrateDatabase(`file:${template}`, { quiet: true });
  project.provide("templateDb", template);
  let stop: () => void = () => undefined;
  if (project.config.env?.PLANGATE_TEST_DB === "postgres") {
    let base = process.env.PLANGATE_TEST_PG_URL;
    if (!base) {
      // Not inside `dir`: mkdtemp makes it root-only, and as root the cluster runs as the postgres user, who must
      // reach its data folder. startLocalPostgres makes a folder of its own and hands it to that user.
      const cluster = await startLocalPostgres();
      base = cluster.url();
      stop = () => {
        cluster.stop();
        fs.rmSync(cluster.dir, { recursive: true, force: true });
      };
    }
    const name = `plangate_template_${process.pid}`;
    try {
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      const url = new URL(base);
      url.pathname = `/${name}`;
      await migrateDatabase(url.toString(), { quiet: true });
    } catch (error) {
      // No teardown runs for a setup that threw: the cluster started above must not outlive the run.
      stop();
      fs.rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    project.provide("pgUrl", base);
    project.provide("pgTemplate", name);
  }
  return () => {
    stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDb: string;
    pgUrl: string;
    pgTemplate: string;
  }
}
