/**
 * The room cap across server instances (docs/operating/video.md "Several instances"). Each instance's own view
 * of a room (rooms.ts, fed by the relay) lags the others' joins, so two instances could both hand out
 * the last place. The places are therefore also taken in PostgreSQL: one row per member, counted and
 * inserted under a transaction-scoped advisory lock on the room, so joins on any instance are decided
 * one after the other against one count.
 *
 * A member row belongs to its instance, and an instance's row says when it was last alive (a beat
 * every VIDEO_RELAY_ALIVE_MS): places held by an instance silent for 3.5 beats (killed) do not count,
 * and its rows go with it. An instance that stops deletes its rows. Each beat also writes this
 * instance's places again, so one that was taken for dead during a blip counts again.
 *
 * One connection (a pool of one): this instance's seat operations run in the order asked, so a leave
 * is written before the rejoin that follows it.
 */
import pg from 'pg'
import { VIDEO_ROOM_MAX } from '../../shared/video'

/** Advisory lock namespace ('Mome' as in the store's keys; the second key is the room's hash). */
const SEATS_LOCK = 0x4d6f6d65

const SCHEMA = `
CREATE TABLE IF NOT EXISTS video_instances (instance text PRIMARY KEY, alive timestamptz NOT NULL);
CREATE TABLE IF NOT EXISTS video_seats (
  room text NOT NULL, peer text NOT NULL,
  instance text NOT NULL REFERENCES video_instances (instance) ON DELETE CASCADE,
  PRIMARY KEY (room, peer));
`

export interface Seats {
  /** Takes a place in the room for the peer; false when every place is held, on whichever instance. */
  take(room: string, peer: string): Promise<boolean>
  release(room: string, peer: string): Promise<void>
  close(): Promise<void>
}

export async function startPostgresSeats(
  connectionString: string,
  instance: string,
  aliveMs: number,
  /** This instance's members now, written again on every beat. */
  locals: () => Array<{ room: string; peer: string }>,
  onError: (e: unknown) => void,
): Promise<Seats> {
  const pool = new pg.Pool({ connectionString, max: 1 })
  pool.on('error', () => {
    // An idle client died (server restart); the pool makes a new one on the next query.
  })
  const stale = `${Math.round(aliveMs * 3.5)} milliseconds`

  const transaction = async <T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
    const c = await pool.connect()
    try {
      await c.query('BEGIN')
      const out = await fn(c)
      await c.query('COMMIT')
      return out
    } catch (error) {
      await c.query('ROLLBACK').catch(() => {})
      throw error
    } finally {
      c.release()
    }
  }

  const beat = () =>
    transaction(async (c) => {
      await c.query(
        'INSERT INTO video_instances (instance, alive) VALUES ($1, now()) ON CONFLICT (instance) DO UPDATE SET alive = now()',
        [instance],
      )
      await c.query('DELETE FROM video_instances WHERE alive < now() - $1::interval', [stale])
      const mine = locals()
      if (mine.length)
        await c.query(
          `INSERT INTO video_seats (room, peer, instance)
           SELECT room, peer, $3 FROM unnest($1::text[], $2::text[]) AS t(room, peer) ON CONFLICT DO NOTHING`,
          [mine.map((m) => m.room), mine.map((m) => m.peer), instance],
        )
    })

  // Several instances may start at once; CREATE TABLE IF NOT EXISTS alone can race.
  await transaction(async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1, 0)', [SEATS_LOCK])
    await c.query(SCHEMA)
  })
  await beat()
  const timer = setInterval(() => void beat().catch(onError), aliveMs)
  timer.unref()

  return {
    take: (room, peer) =>
      transaction(async (c) => {
        await c.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SEATS_LOCK, room])
        const { rows } = await c.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM video_seats s JOIN video_instances i USING (instance)
           WHERE s.room = $1 AND i.alive >= now() - $2::interval`,
          [room, stale],
        )
        if (rows[0]!.n >= VIDEO_ROOM_MAX) return false
        // This instance's row may have been taken for dead and deleted meanwhile: the seat needs it.
        await c.query(
          'INSERT INTO video_instances (instance, alive) VALUES ($1, now()) ON CONFLICT (instance) DO UPDATE SET alive = now()',
          [instance],
        )
        await c.query('INSERT INTO video_seats (room, peer, instance) VALUES ($1, $2, $3)', [
          room,
          peer,
          instance,
        ])
        return true
      }).catch((error) => {
        // The database does not answer (the relay is then down too): the join is let in under this
        // instance's own count rather than refused; the next beat writes its place.
        onError(error)
        return true
      }),
    async release(room, peer) {
      await pool.query('DELETE FROM video_seats WHERE room = $1 AND peer = $2', [room, peer]).catch(onError)
    },
    async close() {
      clearInterval(timer)
      await pool.query('DELETE FROM video_instances WHERE instance = $1', [instance]).catch(onError)
      await pool.end()
    },
  }
}
