import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

interface KoaContext {
  path: string;
  mountPath?: string;
  state: { vhost?: boolean };
}
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  /** Koa's middleware list (s3rver is a Koa app); the last one is its router. */
  middleware: Array<(ctx: KoaContext, next: () => Promise<unknown>) => unknown>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

export interface S3TestServer {
  /** The environment that points the app's storage at this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** s3rver (an S3-compatible server in plain JavaScript that checks SigV4) with one bucket. */
export async function startS3TestServer(bucket = 'blog-images'): Promise<S3TestServer> {
  const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as S3rverClass;
  const directory = mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  // The AWS SDK lists a bucket at `/bucket/` (path style) and signs that path; s3rver signs
  // bucket-level requests as `/bucket`, so every listing would fail its signature check. Just
  // before s3rver's router, such a request is made to canonicalise with the slash (through
  // s3rver's own vhost branch: `/${bucket}` + mount path); routing and every other request are
  // untouched, and signatures are still checked.
  server.middleware.splice(server.middleware.length - 1, 0, (ctx, next) => {
    if (!ctx.state.vhost && ctx.path === `/${bucket}/`) {
      ctx.state.vhost = true;
      ctx.mountPath = '/';
    }
    return next();
  });
  const address = await server.run();
  return {
    env: {
      S3_BUCKET: bucket,
      // A host name, not an IP: with an IP the SDK picks path-style addressing by itself.
      S3_ENDPOINT: `http://localhost:${address.port}`,
      // s3rver's one built-in account.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
