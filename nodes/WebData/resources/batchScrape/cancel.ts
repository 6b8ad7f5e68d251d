import { jobCancel } from '../crawl/crawlAndBatch';

/** Batch Scrape → Cancel: stop a running batch scrape job. */
export const cancel = jobCancel('batch');
