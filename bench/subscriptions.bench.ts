/**
 * A new blog announced to 10,000 subscribers through the durable queue, into a real SMTP server
 * on loopback (`smtp-server`, in this process): the time to queue the 10,000 jobs (the fan-out,
 * one statement), the time until the last message is accepted, messages per second, and the
 * peak memory; beside a bare baseline measured in the same run (the machine is shared and noisy):
 * nodemailer's pooled transport sending the same 10,000 messages straight, 4 at a time, with no
 * queue and no database. PGlite in memory; MAIL_SEND_PER_MINUTE set far above what is reached.
 * Run: node --expose-gc --import tsx bench/subscriptions.bench.ts [subscribers]
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import { blogPublishedJob } from '../src/server/core/blog-published.js';
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/database.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import { sendRate } from '../src/server/mail/mail-queue.js';
import { createMailer, pooled } from '../src/server/mail/mailer.js';
import { createJobQueue, enqueueJob } from '../src/server/queue/job-queue.js';
import { createLocalImageStorage } from '../src/server/storage/local-storage.js';
import { newPostMail, NEW_POST_MAIL_JOB, registerSubscriptionJobs } from '../src/server/subscriptions/new-post-mail.js';
import { createBlogEvents } from '../src/server/core/blog-events.js';
import { seedAuthor, seedSubscribers } from '../src/server/subscriptions/seed-subscribers.js';
import { startSmtpServer } from '../src/server/testing/smtp-server.js';
import { getBlog } from '../src/server/blogs/blogs.service.js';
import { createSiteSettings } from '../src/server/core/site-settings.js';

const SUBSCRIBERS = Number(process.argv[2] ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const silent = { info() {}, warn() {}, error: console.error, debug() {}, trace() {}, fatal: console.error, child: () => silent } as never;

function memorySampler() {
  gc();
  const base = process.memoryUsage();
  const peak = { heap: base.heapUsed, rss: base.rss };
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peak.heap = Math.max(peak.heap, now.heapUsed);
    peak.rss = Math.max(peak.rss, now.rss);
  }, 5);
  return {
    stop: () => {
      clearInterval(timer);
      return { heapMb: (peak.heap - base.heapUsed) / 2 ** 20, rssMb: peak.rss / 2 ** 20 };
    },
  };
}

async function main() {
  // The messages are counted, not parsed nor kept.
  const smtp = await startSmtpServer({ keep: false });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'subscriptions-bench-'));
  const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3000', AUTH_SECRET: 'b'.repeat(64), SMTP_URL: smtp.url });
  const database = await openDatabase({ dataDir, inMemory: true });
  const storage = createLocalImageStorage(path.join(dataDir, 'uploads'));
  await migrateToLatest(database.db);
  const authorId = await seedAuthor(database.db, 'author@example.test');
  await seedSubscribers(database.db, authorId, SUBSCRIBERS);
  const blog = await database.db.insertInto('blogs').values({ user_id: authorId, title: 'News for everyone', body: 'A paragraph for the excerpt. '.repeat(10) }).returning('id').executeTakeFirstOrThrow();
  console.log(`${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}, Node ${process.version}, PGlite in memory, SMTP on loopback; ${SUBSCRIBERS} subscribers`);

  // Bare: the same messages, straight through nodemailer's pool, 4 at a time.
  const page = await getBlog({ db: database.db, storage, log: silent }, null, blog.id);
  const subscriptions = await database.db.selectFrom('subscriptions').selectAll().execute();
  const bareTransport = nodemailer.createTransport(pooled(smtp.url));
  let memory = memorySampler();
  let start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < subscriptions.length) {
        const subscription = subscriptions[next++]!;
        await bareTransport.sendMail({ from: config.mail.from.address, ...newPostMail({ config, storage }, page, { ...subscription, author_email: 'author@example.test', author_display_name: null, author_handle: 'author' }, config.siteName) });
      }
    }),
  );
  const bareMs = performance.now() - start;
  const bareMemory = memory.stop();
  bareTransport.close();
  const bareAccepted = smtp.accepted();

  // Through the queue: the publish hook's job, its fan-out, then each message as a job.
  const transport = createMailer(config, silent);
  const queue = createJobQueue({ db: database.db, log: silent, pollMs: 1000 });
  registerSubscriptionJobs(queue, createBlogEvents(queue), { db: database.db, storage, config, siteSettings: createSiteSettings({ db: database.db, config }), log: silent, send: sendRate(10_000_000), transport });
  memory = memorySampler();
  start = performance.now();
  await enqueueJob(database.db, blogPublishedJob(blog.id));
  await queue.start();
  let queuedMs = 0;
  while (smtp.accepted() - bareAccepted < SUBSCRIBERS) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (!queuedMs) {
      const queued = await database.db.selectFrom('queued_jobs').select((eb) => eb.fn.countAll<string>().as('n')).where('kind', '=', NEW_POST_MAIL_JOB).executeTakeFirstOrThrow();
      if (Number(queued.n) === SUBSCRIBERS) queuedMs = performance.now() - start;
    }
  }
  const queueMs = performance.now() - start;
  const queueMemory = memory.stop();
  await queue.stop();
  transport.close();

  const rate = (ms: number) => Math.round((SUBSCRIBERS / ms) * 1000);
  console.log(`bare nodemailer pool: ${bareAccepted} messages in ${(bareMs / 1000).toFixed(1)} s, ${rate(bareMs)} messages/s, heap +${bareMemory.heapMb.toFixed(0)} MB, RSS peak ${bareMemory.rssMb.toFixed(0)} MB`);
  console.log(`durable queue: ${SUBSCRIBERS} jobs queued in ${queuedMs.toFixed(0)} ms (fan-out, one statement); all sent in ${(queueMs / 1000).toFixed(1)} s, ${rate(queueMs)} messages/s, heap +${queueMemory.heapMb.toFixed(0)} MB, RSS peak ${queueMemory.rssMb.toFixed(0)} MB`);
  console.log(`queue / bare time: ${(queueMs / bareMs).toFixed(2)}x`);
  await database.close();
  await smtp.close();
}

await main();
