// The real limit of a request that needs the database: Fastify with a pool like Berth's
// (server/src/db/connection.ts: pg, 10 connections) doing one select by primary key per request.
import Fastify from 'fastify';
import { listenAsBaseline } from './baseline-listen.ts';
import pg from 'pg';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });

const app = Fastify({ logger: false });
app.get('/', async () => {
  const { rows } = await pool.query('select id, email, role from users where id = $1', [1]);
  return { data: rows[0] ?? null };
});

await listenAsBaseline(app, () => pool.end());
