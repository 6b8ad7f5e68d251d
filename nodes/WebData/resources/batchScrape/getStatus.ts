import { jobGetStatus } from '../crawl/crawlAndBatch';

/** Batch Scrape → Get Status: the status, or one item per page scraped so far. */
export const getStatus = jobGetStatus('batch');
