/** What the Vitest global setup hands to every test file (see global-setup.ts). */
declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
    postgresTemplateDb: string;
    /** processes-setup.ts: a DATA_DIR whose embedded database is migrated, to copy (`migratedDataDir`). */
    migratedDataDir: string;
  }
}

export {};
