import { exportJwk, generateCryptoKeyPair, importJwk, type Federation } from '@fedify/fedify';
import { Endpoints, Person, type Create } from '@fedify/vocab';
import type { Kysely } from 'kysely';
import { absoluteUrl, paths } from '../../shared/paths.js';
import type { Database } from '../db/schema.js';
import { escapeHtmlText } from '../markdown/outgoing-text.js';
import { articleOf, createOf } from './activity-objects.js';
import type { FederationPartDeps } from './federation-deps.js';
import * as store from './federation.repository.js';
import { publicBlogJson } from './public-blogs.js';

/**
 * What the site answers when the fediverse asks (Fedify's dispatchers): an author's actor (a
 * Person, never their e-mail) and its key pairs, NodeInfo, an author's outbox (the Creates of
 * their public blogs) and followers collection.
 */

const PAGE_SIZE = 20;

export function registerDispatchers(federation: Federation<void>, { deps }: FederationPartDeps): void {
  const { db, config } = deps;

  federation
    .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
      const user = await store.findLocalActor(db, identifier);
      if (!user) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: user.handle,
        name: user.display_name ?? user.handle,
        summary: user.bio ? `<p>${escapeHtmlText(user.bio)}</p>` : null,
        url: new URL(absoluteUrl(config.publicUrl, paths.author(user.id))),
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: keys[0]?.cryptographicKey,
        assertionMethods: keys.map((key) => key.multikey),
        manuallyApprovesFollowers: false,
        discoverable: true,
      });
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      // A suspended author's keys still sign the Deletes that take their posts off other servers
      // (their actor answers 410, so the keys are never shown).
      const user = await store.findHandleOwner(db, identifier);
      if (!user) return [];
      return Promise.all((['RSASSA-PKCS1-v1_5', 'Ed25519'] as const).map((algorithm) => keyPair(db, user.id, algorithm)));
    });

  federation.setNodeInfoDispatcher('/nodeinfo/2.1', async () => {
    const usage = await store.countUsage(db);
    const settings = await deps.siteSettings.get();
    return {
      software: { name: 'blogging-site', version: '1.0.0' },
      protocols: ['activitypub'],
      openRegistrations: settings.registration === 'open',
      // The site's own name, as other servers' lists of instances show it (issue 44's settings).
      metadata: { nodeName: settings.siteName, ...(settings.description ? { nodeDescription: settings.description } : {}) },
      usage: { users: { total: usage.users }, localPosts: usage.posts, localComments: usage.comments },
    };
  });

  federation
    .setFollowersDispatcher('/users/{identifier}/followers', async (_ctx, identifier) => {
      const user = await store.findLocalActor(db, identifier);
      if (!user) return null;
      const rows = await store.listFollowers(db, user.id);
      return {
        items: rows.map((row) => ({
          id: new URL(row.actor_id),
          inboxId: new URL(row.inbox_url),
          endpoints: row.shared_inbox_url ? { sharedInbox: new URL(row.shared_inbox_url) } : null,
        })),
      };
    })
    .setCounter(async (_ctx, identifier) => {
      const user = await store.findLocalActor(db, identifier);
      return user ? store.countFollowers(db, user.id) : null;
    });

  federation
    .setOutboxDispatcher('/users/{identifier}/outbox', async (ctx, identifier, cursor) => {
      const user = await store.findLocalActor(db, identifier);
      if (!user) return null;
      const offset = cursor ? Number.parseInt(cursor, 10) || 0 : 0;
      const ids = await store.listPublicBlogIds(db, user.id, { offset, limit: PAGE_SIZE });
      const items: Create[] = [];
      for (const id of ids) {
        const blog = await publicBlogJson(deps, id);
        if (blog) items.push(createOf(ctx, identifier, articleOf(deps, ctx, identifier, blog)));
      }
      return { items, nextCursor: ids.length === PAGE_SIZE ? String(offset + PAGE_SIZE) : null };
    })
    .setCounter(async (_ctx, identifier) => {
      const user = await store.findLocalActor(db, identifier);
      return user ? store.countPublicBlogs(db, user.id) : null;
    })
    .setFirstCursor(() => '0');
}

async function keyPair(db: Kysely<Database>, userId: string, algorithm: 'RSASSA-PKCS1-v1_5' | 'Ed25519'): Promise<CryptoKeyPair> {
  const stored = await store.findKey(db, userId, algorithm);
  if (stored) {
    return { privateKey: await importJwk(stored.private_key, 'private'), publicKey: await importJwk(stored.public_key, 'public') };
  }
  const generated = await generateCryptoKeyPair(algorithm);
  const saved = await store.saveKey(db, {
    user_id: userId,
    algorithm,
    private_key: JSON.stringify(await exportJwk(generated.privateKey)),
    public_key: JSON.stringify(await exportJwk(generated.publicKey)),
  });
  // Another request made the pair first: theirs is the one published.
  if (!saved) return keyPair(db, userId, algorithm);
  return generated;
}
