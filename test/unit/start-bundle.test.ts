// What npm start's bundle holds (scripts/build.mjs, startBundleOptions): the engines' tools, which
// it uses to migrate and to pass over the stored secrets, and neither the stores nor a Prisma
// client, which only the server that it then loads uses (lib/db/engine.ts). Bundled here as the
// build bundles it, without writing it.
import { build, type BuildOptions } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { startBundleOptions } from '../../scripts/build.mjs';

/** The modules the bundle keeps any code of, by path from the project's root. */
async function modulesInStartBundle(): Promise<string[]> {
  const { metafile } = await build({ ...(startBundleOptions() as BuildOptions), write: false, metafile: true, logLevel: 'silent' });
  const outputs = Object.values(metafile.outputs);
  // One file: it shares no chunks with the operator commands, which use the stores.
  expect(outputs.filter((output) => output.entryPoint === undefined)).toEqual([]);
  return outputs.flatMap((output) => Object.entries(output.inputs).filter(([, { bytesInOutput }]) => bytesInOutput > 0).map(([input]) => input));
}

describe("npm start's bundle", () => {
  it('holds the engines\' tools, and neither their stores nor a Prisma client', async () => {
    const modules = await modulesInStartBundle();
    expect(modules).toEqual(expect.arrayContaining(['lib/db/engine.ts', 'lib/db/sqlite/tools.ts', 'lib/db/postgresql/tools.ts', 'lib/db/migrate.ts', 'lib/db/schema-engine.ts']));
    const stores = modules.filter((module) =>
      /^lib\/db\/((sqlite|postgresql)\/(engine|plants|deliveries|prisma-client|connection|direct|executor)|plant-store|traced-engine|client|generated\/)|@prisma\/client\//.test(module),
    );
    expect(stores).toEqual([]);
  }, 30_000);
});
