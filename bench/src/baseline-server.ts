// The baseline: the smallest Fastify app, as fast as a JSON answer from Node gets.
import Fastify from 'fastify';
import { listenAsBaseline } from './baseline-listen.ts';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

await listenAsBaseline(app);
