import { jobGetStatus } from '../crawl/jobs';

/** Batch Scrape → Get Status: the status, or one item per page scraped so far. */
export const getStatus = jobGetStatus('batch');
