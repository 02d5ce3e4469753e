import { describe, expect, it } from 'vitest';
import { startHealthyServer } from './testing/server-process.js';

// Runs in the `postgres` Vitest project only (see vitest.config.ts), where TEST_DATABASE_URL is set.
describe('the server process on PostgreSQL', () => {
  it('runs on a PostgreSQL server with DATABASE_URL', async () => {
    const { port, server } = await startHealthyServer({ DATABASE_URL: process.env.TEST_DATABASE_URL! });
    const response = await fetch(`http://127.0.0.1:${port}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://localhost:${port}` },
      body: JSON.stringify({ email: 'pg@example.com', message: 'stored in Postgres' }),
    });
    expect(response.status).toBe(201);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);
});
