/** Types of scripts/e2e-server-env.mjs, for tests/e2e/support/own-server.ts. */
export declare const serverEntry: string;
export declare function e2eDataDir(name: string): string;
export declare function e2eServerEnv(port: number | string, dataDir: string): Record<string, string | undefined>;
