import { jobCancel } from '../crawl/jobs';

/** Batch Scrape → Cancel: stop a running batch scrape job. */
export const cancel = jobCancel('batch');
