import { jobGetStatus } from './crawlAndBatch';

/** Crawl → Get Status: the status, or one item per page scraped so far. */
export const getStatus = jobGetStatus('crawl');
