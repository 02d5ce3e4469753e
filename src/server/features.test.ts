import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FEATURES } from './app.js';

const SERVER = path.dirname(fileURLToPath(import.meta.url));

/** Every feature registers itself through its one object, and `app.ts`'s one list holds each of them once. */
describe('the features’ list', () => {
  it('holds every `<feature>/<feature>.feature.ts` object, once, under its folder’s name', async () => {
    const folders = readdirSync(SERVER, { withFileTypes: true }).filter((entry) => entry.isDirectory() && readdirSync(path.join(SERVER, entry.name)).includes(`${entry.name}.feature.ts`));
    expect(folders.length).toBeGreaterThanOrEqual(21);
    for (const folder of folders) {
      const module = (await import(`./${folder.name}/${folder.name}.feature.ts`)) as Record<string, unknown>;
      const exported = Object.values(module);
      expect(exported, `${folder.name}.feature.ts exports one object`).toHaveLength(1);
      expect(FEATURES, `${folder.name} is in app.ts's FEATURES`).toContain(exported[0]);
      expect((exported[0] as { name: string }).name).toBe(folder.name);
    }
    const names = FEATURES.map((feature) => feature.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('names the feature folders of eslint.config.js, each with its object', async () => {
    const { readFileSync } = await import('node:fs');
    const config = readFileSync(path.join(SERVER, '../../eslint.config.js'), 'utf8');
    const listed = JSON.parse(config.match(/const SERVER_FEATURES = (\[[^\]]*\])/)![1]!.replaceAll("'", '"')) as string[];
    const names = new Set(FEATURES.map((feature) => feature.name));
    expect(listed.filter((feature) => !names.has(feature))).toEqual([]);
  });
});
