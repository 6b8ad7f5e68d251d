import { jobCancel } from './crawlAndBatch';

/** Crawl → Cancel: stop a running crawl. */
export const cancel = jobCancel('crawl');
