import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../config.js';
import { startS3TestServer, type S3TestServer } from '../testing/s3-test-server.js';
import { isValidImageKey, ogImageKey, variantImageKey } from './image-key.js';
import { createLocalImageStorage, localUploadsDir } from './local-storage.js';
import { createS3ImageStorage, IMAGE_CACHE_CONTROL } from './s3-storage.js';
import { createImageStorage, newImageKey } from './storage.js';

const tempDirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'image-storage-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: 'x'.repeat(32), ...env });
}

const HOSTILE_KEYS = [
  '../x',
  '../x.webp',
  'blogs/../../etc/passwd.webp',
  'blogs/../x.webp',
  '/etc/passwd',
  'blogs/a/b.webp',
  'blogs/.hidden.webp',
  'blogs/x.png',
  'blogs/x.webp/../../y.webp',
  'blogs\\..\\x.webp',
  'blogs/x%2F..%2Fy.webp',
  'blogs/x.webp\0',
  '',
];

describe('newImageKey', () => {
  const KEY_SHAPE = /^blogs\/([a-z0-9-]{1,40})-user_123-(\d{13})-([0-9a-f]{8})\.webp$/;

  it('builds blogs/{slug}-{user id}-{timestamp}-{random}.webp', () => {
    const before = Date.now();
    const key = newImageKey('Summer Holiday.JPG', 'user_123');
    const match = KEY_SHAPE.exec(key);
    expect(match?.[1]).toBe('summer-holiday');
    expect(Number(match?.[2])).toBeGreaterThanOrEqual(before);
    expect(Number(match?.[2])).toBeLessThanOrEqual(Date.now());
    expect(isValidImageKey(key)).toBe(true);
  });

  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\Windows\\win.ini', 'win'],
    ['C:\\Users\\me\\My Photo.PNG', 'my-photo'],
    ['Café Crème.jpeg', 'cafe-creme'],
    ['🐱🐱🐱.png', 'image'],
    ['', 'image'],
    ['..', 'image'],
    ['.env', 'image'],
    ['a\0b\nc<script>.gif', 'a-b-c-script'],
    ['x'.repeat(500) + '.png', 'x'.repeat(40)],
    ['---' + 'ab-'.repeat(200), 'ab-'.repeat(13) + 'a'],
  ])('makes a safe key from the name %j', (name, slug) => {
    const key = newImageKey(name, 'user_123');
    expect(KEY_SHAPE.exec(key)?.[1]).toBe(slug);
    expect(isValidImageKey(key)).toBe(true);
    expect(key.length).toBeLessThan(120);
  });

  it('keeps a hostile user id inside the key pattern', () => {
    for (const userId of ['../../x', 'a/b', '', 'ü', 'AbC-09_z', 'u'.repeat(1000)]) {
      expect(isValidImageKey(newImageKey('photo.png', userId))).toBe(true);
    }
    expect(newImageKey('photo.png', 'AbC-09_z')).toContain('-AbC-09_z-');
  });

  it('derives the variant and Open Graph keys from the image key, inside the same pattern', () => {
    const key = newImageKey('photo.jpg', 'u1');
    const stem = key.slice(0, -'.webp'.length);
    expect(variantImageKey(key, 480)).toBe(`${stem}-w480.webp`);
    expect(ogImageKey(key)).toBe(`${stem}-og.webp`);
    expect(isValidImageKey(variantImageKey(key, 960)) && isValidImageKey(ogImageKey(key))).toBe(true);
    expect(() => variantImageKey('../x.webp', 480)).toThrow(/Invalid image key/);
  });

  it('never repeats, even within one millisecond', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => newImageKey('same.png', 'same-user')));
    expect(keys.size).toBe(2000);
  });
});

describe('local image storage', () => {
  it('writes the image under the uploads folder and serves it from /uploads/', async () => {
    const root = await tempDir();
    const storage = createLocalImageStorage(root);
    const key = newImageKey('photo.jpg', 'u1');
    const data = Buffer.from('RIFF....WEBPVP8 fake image bytes');

    await storage.put(key, data, 'image/webp');

    expect(await readFile(path.join(root, key))).toEqual(data);
    expect(storage.publicUrl(key)).toBe(`/uploads/${key}`);
    expect(storage.publicUrl(key).startsWith(storage.publicBaseUrl)).toBe(true);
    // The temporary file was renamed, not left behind.
    expect(await readdir(path.join(root, 'blogs'))).toEqual([key.slice('blogs/'.length)]);
  });

  it('replaces an image atomically: concurrent writers never leave a mixed file', async () => {
    const root = await tempDir();
    const storage = createLocalImageStorage(root);
    const key = newImageKey('photo.jpg', 'u1');
    const versions = Array.from({ length: 12 }, (_, i) => Buffer.alloc(256 * 1024, i + 1));

    await Promise.all(versions.map((data) => storage.put(key, data, 'image/webp')));

    const stored = await readFile(path.join(root, key));
    expect(versions.some((version) => version.equals(stored))).toBe(true);
    expect(await readdir(path.join(root, 'blogs'))).toHaveLength(1);
  });

  it('reads an image back, and null for a missing one', async () => {
    const storage = createLocalImageStorage(await tempDir());
    const key = newImageKey('photo.jpg', 'u1');
    expect(await storage.get(key)).toBeNull();
    await storage.put(key, Buffer.from('bytes'), 'image/webp');
    expect(await storage.get(key)).toEqual(Buffer.from('bytes'));
  });

  it('deletes an image, and deleting a missing one is not an error', async () => {
    const root = await tempDir();
    const storage = createLocalImageStorage(root);
    const key = newImageKey('photo.jpg', 'u1');
    await storage.put(key, Buffer.from('bytes'), 'image/webp');

    await storage.delete(key);
    expect(existsSync(path.join(root, key))).toBe(false);
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it.each(HOSTILE_KEYS)('refuses the key %j for put, delete and publicUrl', async (key) => {
    const parent = await tempDir();
    const root = path.join(parent, 'uploads');
    const storage = createLocalImageStorage(root);
    const outside = path.join(parent, 'x.webp');
    await writeFile(outside, 'must survive');

    await expect(storage.put(key, Buffer.from('evil'), 'image/webp')).rejects.toThrow(/Invalid image key/);
    await expect(storage.delete(key)).rejects.toThrow(/Invalid image key/);
    await expect(storage.get(key)).rejects.toThrow(/Invalid image key/);
    expect(() => storage.publicUrl(key)).toThrow(/Invalid image key/);
    expect(await readFile(outside, 'utf8')).toBe('must survive');
    expect(existsSync(root)).toBe(false);
  });

  it('is what createImageStorage returns without S3, rooted in DATA_DIR/uploads', async () => {
    const dataDir = await tempDir();
    const config = testConfig(dataDir);
    expect(localUploadsDir(config)).toBe(path.join(dataDir, 'uploads'));

    const storage = createImageStorage(config);
    const key = newImageKey('photo.jpg', 'u1');
    await storage.put(key, Buffer.from('bytes'), 'image/webp');
    expect(await readFile(path.join(dataDir, 'uploads', key), 'utf8')).toBe('bytes');
    expect(storage.publicUrl(key)).toBe(`/uploads/${key}`);
  });
});

/**
 * Against s3rver, an S3-compatible server in plain JavaScript that checks SigV4 signatures
 * and keeps objects on disk.
 */
describe('S3 image storage', () => {
  let server: S3TestServer;
  let bucket: string;
  let endpoint: string;
  let config: Config;
  let inspector: S3Client;

  beforeAll(async () => {
    server = await startS3TestServer();
    ({ S3_BUCKET: bucket, S3_ENDPOINT: endpoint } = server.env as { S3_BUCKET: string; S3_ENDPOINT: string });
    config = testConfig(await tempDir(), server.env);
    inspector = new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: server.env.S3_ACCESS_KEY_ID!, secretAccessKey: server.env.S3_SECRET_ACCESS_KEY! },
    });
  });
  afterAll(async () => {
    inspector?.destroy();
    await server?.close();
  });

  it('is what createImageStorage returns when S3_BUCKET is set', () => {
    const storage = createImageStorage(config);
    const key = newImageKey('photo.jpg', 'u1');
    expect(storage.publicUrl(key)).toBe(`${endpoint}/${bucket}/${key}`);
    expect(storage.publicBaseUrl).toBe(`${endpoint}/${bucket}/`);
    expect(existsSync(path.join(config.dataDir, 'uploads'))).toBe(false);
  });

  it('puts the object with its content type and a year of immutable caching', async () => {
    const storage = createImageStorage(config);
    const key = newImageKey('photo.jpg', 'u1');
    const data = Buffer.from('RIFF....WEBPVP8 fake image bytes');

    await storage.put(key, data, 'image/webp');

    const head = await inspector.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    expect(head.ContentType).toBe('image/webp');
    expect(head.CacheControl).toBe('public, max-age=31536000, immutable');
    expect(IMAGE_CACHE_CONTROL).toBe(head.CacheControl);

    const response = await fetch(storage.publicUrl(key));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe(IMAGE_CACHE_CONTROL);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(data);
  });

  it('deletes the object, and deleting a missing one is not an error', async () => {
    const storage = createImageStorage(config);
    const key = newImageKey('photo.jpg', 'u1');
    await storage.put(key, Buffer.from('bytes'), 'image/webp');
    expect((await fetch(storage.publicUrl(key))).status).toBe(200);

    await storage.delete(key);

    expect((await fetch(storage.publicUrl(key))).status).toBe(404);
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('reads an object back, and null for a missing one', async () => {
    const storage = createImageStorage(config);
    const key = newImageKey('photo.jpg', 'u1');
    expect(await storage.get(key)).toBeNull();
    await storage.put(key, Buffer.from('object bytes'), 'image/webp');
    expect(await storage.get(key)).toEqual(Buffer.from('object bytes'));
  });

  it('signs its requests with the configured credentials', async () => {
    const storage = createImageStorage(testConfig(await tempDir(), {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'not-the-secret',
    }));
    await expect(storage.put(newImageKey('photo.jpg', 'u1'), Buffer.from('x'), 'image/webp')).rejects.toThrow(/signature/i);
  });

  it.each(HOSTILE_KEYS)('refuses the key %j', async (key) => {
    const storage = createImageStorage(config);
    await expect(storage.put(key, Buffer.from('evil'), 'image/webp')).rejects.toThrow(/Invalid image key/);
    await expect(storage.delete(key)).rejects.toThrow(/Invalid image key/);
    await expect(storage.get(key)).rejects.toThrow(/Invalid image key/);
    expect(() => storage.publicUrl(key)).toThrow(/Invalid image key/);
  });

  it('uses S3_PUBLIC_URL for links when set, and the AWS address without an endpoint', () => {
    const key = newImageKey('photo.jpg', 'u1');
    const viaCdn = createS3ImageStorage({ bucket, region: 'us-east-1', endpoint, publicUrl: 'https://cdn.example.com/img/' });
    expect(viaCdn.publicUrl(key)).toBe(`https://cdn.example.com/img/${key}`);
    expect(viaCdn.publicBaseUrl).toBe('https://cdn.example.com/img/');
    const onAws = createS3ImageStorage({ bucket, region: 'eu-west-3' });
    expect(onAws.publicUrl(key)).toBe(`https://${bucket}.s3.eu-west-3.amazonaws.com/${key}`);
    expect(onAws.publicBaseUrl).toBe(`https://${bucket}.s3.eu-west-3.amazonaws.com/`);
  });
});
