// Loaded with `node --import` by `memory/loaded-packages.test.ts`: writes the name of every npm
// package the process resolves, once each, to the file in RECORD_PACKAGES_FILE, as it happens, each
// line `<pid> <package>` (a child process the server starts inherits the hook and writes its own).
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.RECORD_PACKAGES_FILE;
const seen = new Set();
if (file) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url);
      if (match && !seen.has(match[1])) {
        seen.add(match[1]);
        appendFileSync(file, `${process.pid} ${match[1]}\n`);
      }
      return resolved;
    },
  });
}
