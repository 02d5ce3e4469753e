/** What the Vitest global setup hands to every test file (see global-setup.ts). */
declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
    postgresTemplateDb: string;
  }
}

export {};
