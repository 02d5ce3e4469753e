import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** Every npm script that runs a built command line of the server, with the source file it is built from. */
const commandLines = Object.entries(scripts).flatMap(([name, command]) => {
  const built = /node dist\/server\/(\S+\.cli)\.js/.exec(command);
  return built ? [{ name, source: path.join(ROOT, 'src/server', `${built[1]}.ts`) }] : [];
});

describe('every command line of package.json runs as the server does on a small machine', () => {
  it('finds the command lines that open the site', () => {
    expect(commandLines.map((each) => each.name).sort()).toEqual(['backup', 'export', 'images:backfill', 'import', 'owner', 'restore', 'storage:sweep']);
  });

  // runCli reads the arguments before the settings, restarts with the memory budget's flags and sizes
  // sharp from it; openSiteDatabase gives PGlite the budget's shared_buffers, as the server's start does.
  it.each(commandLines)('npm run $name: through runCli, and the database only through openSiteDatabase', ({ source }) => {
    const text = readFileSync(source, 'utf8');
    expect(text).toMatch(/^runCli\(\{ parse: /m);
    expect(text).not.toMatch(/\bopenDatabase\(/);
    expect(text).not.toMatch(/\bloadConfig\(/);
  });
});
