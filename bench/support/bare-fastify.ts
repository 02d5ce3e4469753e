/**
 * The bare Fastify server some benches measure the app beside: constant JSON at `/`, alone in its
 * own process (`startBareFastify` in bench-processes.ts). The port is the first argument.
 */
import Fastify from 'fastify';

const bare = Fastify({ logger: false });
bare.get('/', async () => ({ hello: 'world', items: [] }));
await bare.listen({ host: '127.0.0.1', port: Number(process.argv[2]) });
