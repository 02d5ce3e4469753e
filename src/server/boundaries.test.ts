import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The server's boundaries (eslint.config.js): features import `core/`, `shared/` and the
 * infrastructure, never each other; the core and the infrastructure import no feature. That every
 * file keeps them is `npm run lint`'s to say (a stage of `npm test`); this proves, on probe files,
 * that the rules refuse a crossing import and allow the rest.
 */
describe('the server’s import boundaries', () => {
  const eslint = new ESLint({ cwd: ROOT });
  const boundaryErrors = async (file: string, code: string) =>
    (await eslint.lintText(code, { filePath: path.join(ROOT, file) }))[0]!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);

  it('refuses a feature importing another, and the core importing a feature', async () => {
    expect(await boundaryErrors('src/server/blogs/probe.ts', "import { listComments } from '../comments/comments.service.js';\nexport const x = listComments;\n")).toEqual([
      expect.stringContaining('Features do not import each other'),
    ]);
    expect(await boundaryErrors('src/server/portability/import/probe.ts', "import { listBlogs } from '../../blogs/blogs.service.js';\nexport const x = listBlogs;\n")).toHaveLength(1);
    expect(await boundaryErrors('src/server/core/probe.ts', "import { listBlogs } from '../blogs/blogs.service.js';\nexport const x = listBlogs;\n")).toEqual([
      expect.stringContaining('The core and the infrastructure import no feature'),
    ]);
    // People, settings and audit are features too (issue 57): they import neither auth nor each
    // other, and the core (which holds `may`, the roles, the settings accessor and the audit write)
    // imports none of them.
    expect(await boundaryErrors('src/server/people/probe.ts', "import { createAuth } from '../auth/auth.js';\nexport const x = createAuth;\n")).toEqual([expect.stringContaining('Features do not import each other')]);
    expect(await boundaryErrors('src/server/settings/probe.ts', "import { peopleRoutes } from '../people/people.routes.js';\nexport const x = peopleRoutes;\n")).toEqual([expect.stringContaining('Features do not import each other')]);
    expect(await boundaryErrors('src/server/audit/probe.ts', "import { settingsRoutes } from '../settings/settings.routes.js';\nexport const x = settingsRoutes;\n")).toEqual([expect.stringContaining('Features do not import each other')]);
    expect(await boundaryErrors('src/server/webhooks/probe.ts', "import { analyticsRoutes } from '../analytics/analytics.routes.js';\nexport const x = analyticsRoutes;\n")).toEqual([expect.stringContaining('Features do not import each other')]);
    expect(await boundaryErrors('src/server/auth/probe.ts', "import { accountCreated } from '../people/registration.js';\nexport const x = accountCreated;\n")).toEqual([expect.stringContaining('Features do not import each other')]);
    for (const feature of ['people', 'settings', 'audit']) {
      expect(await boundaryErrors('src/server/core/probe.ts', `import { x as y } from '../${feature}/probe.js';\nexport const x = y;\n`)).toEqual([expect.stringContaining('The core and the infrastructure import no feature')]);
    }
    expect(await boundaryErrors('src/server/http/probe.ts', "import { x as y } from '../people/probe.js';\nexport const x = y;\n")).toEqual([expect.stringContaining('The core and the infrastructure import no feature')]);
    // What is allowed: the core, the infrastructure, the feature's own files.
    expect(
      await boundaryErrors('src/server/comments/probe.ts', "import { findBlogRow } from '../core/blog-rows.repository.js';\nimport { notFound } from '../errors.js';\nimport { listComments } from './comments.service.js';\nexport const x = [findBlogRow, notFound, listComments];\n"),
    ).toEqual([]);
    expect(
      await boundaryErrors('src/server/people/probe.ts', "import { may } from '../core/access.js';\nimport { createSiteSettings } from '../core/site-settings.js';\nimport { recordAudit } from '../core/audit-log.js';\nexport const x = [may, createSiteSettings, recordAudit];\n"),
    ).toEqual([]);
  });
});
