/** The Video route (/video, /video/{room}; no shell UI), loaded on first use. */
import { lazyRoute } from '../../components/lazy-route'

export const VideoRoute = lazyRoute(() => import('./VideoScreen').then((m) => m.VideoScreen))
