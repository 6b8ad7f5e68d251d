import { jobCancel } from './jobs';

/** Crawl → Cancel: stop a running crawl. */
export const cancel = jobCancel('crawl');
