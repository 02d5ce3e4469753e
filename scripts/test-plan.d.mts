/** Types of scripts/test-plan.mjs, for vitest.config.ts. */
export declare const RUNTIME_TESTS: string[];
export declare function testFilesBy(root: string): { inProcess: string[]; mocking: string[]; spawning: string[]; touchingSql: string[] };
