import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config.js';
import { assertValidImageKey } from './image-key.js';
import { assertListedKey, assertListPrefix, isListedKey } from './listed-key.js';
import type { ImageStorage, StoredObject } from './storage.js';

/** Keys are never reused (see `newImageKey`), so browsers and CDNs may keep objects for a year. */
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

type Sdk = typeof S3Sdk;

export function createS3ImageStorage(s3: S3Config): ImageStorage {
  // The SDK (about 23 MB) loads with the first object stored or read, not at start-up.
  let loaded: Promise<{ sdk: Sdk; client: S3Client }> | undefined;
  const connect = () => (loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: newClient(sdk) })));
  const newClient = (sdk: Sdk) => new sdk.S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    // Most S3-compatible servers (MinIO, Garage, R2 by IP, ...) do not route bucket subdomains.
    forcePathStyle: Boolean(s3.endpoint),
    credentials:
      s3.accessKeyId && s3.secretAccessKey
        ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }
        : undefined, // the SDK's default chain: environment, instance role, ...
    // The SDK's default extra checksum headers are refused by several S3-compatible servers;
    // the SigV4 signature already covers the request.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const baseUrl = publicBaseUrl(s3);

  return {
    async put(key, data, contentType) {
      assertValidImageKey(key);
      const { sdk, client } = await connect();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: s3.bucket,
          Key: key,
          Body: data,
          ContentType: contentType,
          CacheControl: IMAGE_CACHE_CONTROL,
        }),
      );
    },

    async get(key) {
      assertValidImageKey(key);
      const { sdk, client } = await connect();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: s3.bucket, Key: key }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
      } catch (error) {
        if (error instanceof sdk.NoSuchKey) return null;
        throw error;
      }
    },

    async delete(key) {
      assertValidImageKey(key);
      // S3 answers 204 for a key that does not exist, which is what the interface promises.
      const { sdk, client } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
    },

    async *list(prefix, options = {}) {
      assertListPrefix(prefix);
      // ListObjects (v1), paged by the last key seen: every S3-compatible server has it, and the
      // test server's v2 continuation tokens need a cipher (DES) that Node 24's OpenSSL lacks.
      let marker: string | undefined;
      for (;;) {
        const { sdk, client } = await connect();
        const page = await client.send(new sdk.ListObjectsCommand({ Bucket: s3.bucket, Prefix: prefix, MaxKeys: options.pageSize ?? 1000, Marker: marker }));
        const contents = page.Contents ?? [];
        const objects: StoredObject[] = [];
        for (const object of contents) {
          // A key no storage of ours could have written (the bucket may be shared) is not ours to judge.
          if (!object.Key || !isListedKey(object.Key)) continue;
          objects.push({ key: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date() });
        }
        if (objects.length > 0) yield objects;
        const last = contents.at(-1)?.Key;
        if (!page.IsTruncated || !last) return;
        marker = page.NextMarker ?? last;
      }
    },
    async removeListed(key) {
      assertListedKey(key);
      const { sdk, client } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
    },
    publicUrl(key) {
      assertValidImageKey(key);
      return `${baseUrl}/${key}`;
    },

    publicBaseUrl: `${baseUrl}/`,
  };
}

function publicBaseUrl(s3: S3Config): string {
  const base =
    s3.publicUrl ??
    (s3.endpoint ? `${s3.endpoint.replace(/\/+$/, '')}/${s3.bucket}` : `https://${s3.bucket}.s3.${s3.region}.amazonaws.com`);
  return base.replace(/\/+$/, '');
}
